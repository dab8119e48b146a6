/**
 * The MCP server's limits (docs/integrations.md): how long one tool call may wait for its request
 * (MCP_CALL_CAP_MS, default 45 s: under the ~60 s clients give a call, after which the request id is
 * answered, never a timeout) and how big one result may be (MCP_TOKEN_BUDGET, default 20,000 tokens).
 *
 * @example mcpOptionsFromEnv({ MCP_CALL_CAP_MS: '2000' }) // { capMs: 2000, budget: 20000, pollMs: 250 }
 */
export interface McpOptions { capMs: number; budget: number; pollMs: number }

const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);

export function mcpOptionsFromEnv(env: NodeJS.ProcessEnv): McpOptions {
  return { capMs: num(env.MCP_CALL_CAP_MS, 45_000), budget: num(env.MCP_TOKEN_BUDGET, 20_000), pollMs: 250 };
}
