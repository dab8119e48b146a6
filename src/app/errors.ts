/**
 * Errors a use case answers with. The HTTP layer turns them into the interface's error bodies
 * (`{"error": true, "errorMessage": "<status> <reason>: <detail>"}`).
 *
 * @example throw new AppError(404, `no request ${id}`) // 404 Not Found: no request ...
 */
export const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout',
  413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type', 431: 'Request Header Fields Too Large', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 503: 'Service Unavailable',
};

export class AppError extends Error {
  constructor(readonly status: number, readonly detail: string, readonly headers: Record<string, string> = {}) {
    super(detail);
    this.name = 'AppError';
  }
  get errorMessage(): string {
    return `${this.status} ${REASONS[this.status] ?? 'Error'}: ${this.detail}`;
  }
}

export const PAYMENT_REQUIRED = 'please close past due invoices or verify your card data';
export const UNAUTHORIZED = 'The server could not verify that you are authorized to access the URL requested. Give a valid API key in the X-API-KEY header.';
