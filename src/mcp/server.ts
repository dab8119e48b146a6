/**
 * The MCP server over trawl's tools (issue 36), with the official SDK (v2, `@modelcontextprotocol/server`:
 * the 2026-07-28 revision, and 2025-era clients served statelessly too). One instance per HTTP request
 * or stdio connection: no session state, so `/mcp` runs behind any load balancer.
 *
 * @example const server = mcpServer(mcpTools(endpoints), api, mcpOptionsFromEnv(process.env));
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { ApiCall } from './api.ts';
import type { McpOptions } from '../config/mcp-options.ts';
import type { McpTool } from './tools.ts';
import { fail } from './result.ts';

export const SERVER_INFO = { name: 'trawl', version: '1.0.0' };

const INSTRUCTIONS = 'trawl extracts data (map places, reviews, listings, lookups) and keeps a business database. Data tools answer '
  + 'records, a page at a time (follow next_offset with requests_get), or, for a long job, a request id to pass to requests_get. '
  + 'Every data call is billed like the API call it makes: check balance before a big job. Monitors rerun a request on a schedule and report changes.';

export function mcpServer(tools: McpTool[], api: ApiCall, o: McpOptions): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const t of tools) {
    server.registerTool(t.name, t.config as never, (async (args: Record<string, unknown>) => {
      try {
        return await t.run(args ?? {}, api, o);
      } catch (e) {
        return fail(`${t.name} failed: ${(e as Error).message}`);
      }
    }) as never);
  }
  return server;
}
