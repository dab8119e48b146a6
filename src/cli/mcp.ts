/**
 * `trawl mcp`: the MCP server over stdio (issue 36; docs/integrations.md) for agents that start their
 * tools as local processes. It talks to a running trawl over HTTP: TRAWL_URL (default
 * http://127.0.0.1:8080) with TRAWL_API_KEY, so every tool call is that API call, billed as such.
 * The tools are those of every data endpoint this build declares a source for (a deployment that
 * serves fewer answers the others' calls with its 501). Logs go to stderr: stdout is the protocol's.
 *
 * @example TRAWL_URL=https://trawl.example.com TRAWL_API_KEY=... npx trawl mcp
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { SOURCES } from '../sources/registry.ts';
import { endpointFor } from '../contract/endpoints/index.ts';
import type { DataEndpoint } from '../contract/endpoint.ts';
import { fetchApi } from '../mcp/api.ts';
import { mcpServer } from '../mcp/server.ts';
import { mcpTools } from '../mcp/tools.ts';
import { mcpOptionsFromEnv } from '../config/mcp-options.ts';

export async function mcpStdio(env: NodeJS.ProcessEnv): Promise<void> {
  const key = env.TRAWL_API_KEY;
  if (!key) {
    process.stderr.write('trawl mcp: set TRAWL_API_KEY (and TRAWL_URL, default http://127.0.0.1:8080)\n');
    process.exit(2);
  }
  const endpoints = SOURCES.map((s) => endpointFor(s.endpoint)).filter((e): e is DataEndpoint => !!e);
  const tools = mcpTools(endpoints);
  const api = fetchApi(env.TRAWL_URL || 'http://127.0.0.1:8080', key);
  const options = mcpOptionsFromEnv(env);
  const handle = serveStdio(() => mcpServer(tools, api, options), { onerror: (e) => process.stderr.write(`trawl mcp: ${e.message}\n`) });
  // The connection ends with stdin; the process then ends.
  process.stdin.once('end', () => { void handle.close().then(() => process.exit(0)); });
}
