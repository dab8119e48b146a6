/**
 * Calls to trawl from a node's own code (the routing's functions, the trigger's webhook methods): one
 * HTTP call with the node's Trawl API credential (its base URL, its key as X-API-KEY), answered in full
 * (status, headers, body) so the caller decides what a status means.
 */
import type { IDataObject, IExecuteSingleFunctions, IHookFunctions, IHttpRequestMethods, IN8nHttpFullResponse, IWebhookFunctions } from 'n8n-workflow';

export const CREDENTIAL = 'trawlApi';

type Caller = IExecuteSingleFunctions | IHookFunctions | IWebhookFunctions;

/** The base URL without a trailing slash (a self-hosted trawl's address, e.g. http://127.0.0.1:8080). */
export const baseUrlOf = (credentials: IDataObject) => String(credentials.baseUrl ?? '').replace(/\/+$/, '');

export async function trawl(ctx: Caller, method: IHttpRequestMethods, url: string, options: { qs?: IDataObject; body?: IDataObject } = {}): Promise<IN8nHttpFullResponse> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL, {
		method, baseURL: baseUrlOf(credentials), url, qs: options.qs, body: options.body, json: true,
		returnFullResponse: true, ignoreHttpStatusErrors: true,
	})) as IN8nHttpFullResponse;
}

/** The interface's reason of a refused call (`{"error": true, "errorMessage": ...}`), else the status. */
export function reasonOf(answer: IN8nHttpFullResponse): string {
	const body = answer.body as IDataObject | string | undefined;
	if (body && typeof body === 'object' && typeof body.errorMessage === 'string') return body.errorMessage;
	return `${answer.statusCode}${typeof body === 'string' && body ? `: ${body.slice(0, 300)}` : ''}`;
}
