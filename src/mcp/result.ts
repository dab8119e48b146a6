/**
 * What a tool answers: its JSON as text (what every client shows the model) and as structured
 * content; an error is a tool error (`isError`) whose text is the interface's reason, so the model
 * reads why and can correct its call.
 *
 * @example ok({ request_id: 'r1' }); fail('422 Unprocessable Entity: limit must be at most 500')
 */
export interface ToolResult {
  [k: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function ok(value: unknown): ToolResult {
  const structured = value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : { result: value };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: structured };
}

export function fail(reason: string): ToolResult {
  return { content: [{ type: 'text', text: reason }], isError: true };
}
