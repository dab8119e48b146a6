/**
 * The n8n node package (integrations/n8n) run by n8n's own engine: n8n-core and n8n-workflow as that
 * package installs them (its devDependencies, pinned to the newest line that runs on Node 20), the
 * package built with its own tsconfig and loaded by n8n's PackageDirectoryLoader from its package.json
 * `n8n` section, workflows executed by WorkflowExecute (declarative nodes through RoutingNode), trigger
 * hooks through HookContext, deliveries through WebhookContext.
 *
 * What n8n's server (the `n8n` package: database, UI, HTTP webhook server) would add is replaced by the
 * least that stands in for it, and only that: credentials kept in memory (`credentialsHelper`, which
 * applies the credential's declared `authenticate` block as n8n's does), the credential test driven
 * through RoutingNode as n8n's CredentialsTester drives a declared test request, and a webhook's data
 * (IWebhookData) built from the node's declaration.
 *
 * @example const n = await loadN8n(); const run = await n.run(workflowJson, { baseUrl, apiKey });
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const N8N_DIR = fileURLToPath(new URL('../../integrations/n8n/', import.meta.url));
const installed = existsSync(join(N8N_DIR, 'node_modules/n8n-core/package.json')) && existsSync(join(N8N_DIR, 'node_modules/n8n-workflow/package.json'));
/** Why the n8n tests skip, or false when they run. */
export const n8nSkip: string | false = installed ? false
  : 'integrations/n8n is not installed (npm ci --prefix integrations/n8n installs n8n-core and n8n-workflow; .ci/run does)';

export const workflowJson = (name: string) => JSON.parse(readFileSync(join(N8N_DIR, 'test/workflows', name), 'utf8'));

export interface Creds { baseUrl: string; apiKey: string }

/** Compiles the package into integrations/n8n/dist (its own tsconfig and TypeScript) and copies its assets. */
export function buildPackage(): void {
  const tsc = join(N8N_DIR, 'node_modules/typescript/bin/tsc');
  for (const args of [[tsc, '-p', join(N8N_DIR, 'tsconfig.json')], [join(N8N_DIR, 'scripts/copy-assets.cjs')]]) {
    const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`building integrations/n8n failed: ${r.stdout}${r.stderr}`);
  }
}

/** A node that outputs the items of its `items` parameter (JSON): the workflows' input, as a Code node would give. */
const itemsNode = {
  description: { displayName: 'Items', name: 'test.items', group: ['input'], version: 1, defaults: { name: 'Items' }, inputs: [], outputs: ['main'], properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }] },
  async execute(this: any) { return [JSON.parse(this.getNodeParameter('items', 0) as string).map((json: unknown) => ({ json }))]; },
};

export async function loadN8n() {
  const require = createRequire(join(N8N_DIR, 'package.json'));
  const core = require('n8n-core');
  const wf = require('n8n-workflow');
  const loader = new core.PackageDirectoryLoader(N8N_DIR);
  await loader.loadAll();
  const prefix = `${loader.packageName}.`;
  const typeOf = (name: string): any => (name === 'test.items' ? itemsNode : loader.nodeTypes[name.startsWith(prefix) ? name.slice(prefix.length) : name]?.type);
  const nodeTypes = {
    getByName: typeOf,
    getByNameAndVersion: (name: string, version?: number) => wf.NodeHelpers.getVersionedNodeType(typeOf(name), version),
    getKnownTypes: () => ({}),
  };
  const credentialType = (name: string): any => loader.credentialTypes[name]?.type;

  /** Credentials in memory; `authenticate` resolves the credential's generic block (its headers, qs) against them. */
  function credentialsHelper(creds: Creds) {
    return new (class extends wf.ICredentialsHelper {
      getParentTypes() { return []; }
      async authenticate(credentials: any, typeName: string, requestOptions: any, workflow: any, node: any) {
        const auth = credentialType(typeName).authenticate;
        const out = { ...requestOptions, headers: { ...requestOptions.headers }, qs: { ...requestOptions.qs } };
        for (const where of ['headers', 'qs'] as const) {
          for (const [k, v] of Object.entries(auth.properties[where] ?? {})) {
            out[where][k] = workflow.expression.getParameterValue(v, null, 0, 0, node.name, [], 'internal', { $credentials: credentials });
          }
        }
        return out;
      }
      async preAuthentication() { return undefined; }
      async getCredentials() { throw new Error('not used'); }
      async getDecrypted() { return { ...creds }; }
      async updateCredentials() {}
      async updateCredentialsOauthTokenData() {}
      getCredentialsProperties(type: string) { return credentialType(type).properties; }
    })();
  }

  function additionalData(creds: Creds, extra: Record<string, unknown> = {}, workflowData: any = { id: 'wf', name: 'test', nodes: [], connections: {}, active: false, settings: {} }) {
    return {
      credentialsHelper: credentialsHelper(creds), hooks: new core.ExecutionLifecycleHooks('manual', 'exec-1', workflowData),
      executeWorkflow: async () => { throw new Error('not used'); }, getRunExecutionData: async () => undefined,
      currentNodeExecutionIndex: 0, restApiUrl: '', instanceBaseUrl: '', formWaitingBaseUrl: '', webhookBaseUrl: '', webhookWaitingBaseUrl: '',
      webhookTestBaseUrl: '', variables: {}, logAiEvent: () => {}, startRunnerTask: async () => { throw new Error('not used'); }, ...extra,
    } as any;
  }

  const workflowOf = (json: any) => new wf.Workflow({ id: json.id ?? 'wf', name: json.name, nodes: json.nodes, connections: json.connections, active: false, nodeTypes, staticData: json.staticData ?? {}, settings: { executionOrder: 'v1' } });

  /** Runs a workflow from its first node with WorkflowExecute; the run data per node. */
  async function run(json: any, creds: Creds): Promise<{ run: any; output(node: string): any[]; error?: any }> {
    const workflow = workflowOf(json);
    const exec = new core.WorkflowExecute(additionalData(creds, {}, json), 'manual');
    const done = await exec.run({ workflow, startNode: workflow.getNode(json.nodes[0].name) });
    return {
      run: done,
      output: (node: string) => done.data.resultData.runData[node]?.[0]?.data?.main?.[0] ?? [],
      error: done.data.resultData.error,
    };
  }

  /** The credential's declared test, run as n8n runs it: its request through RoutingNode with the credential. */
  async function testCredential(creds: Creds): Promise<{ status: 'OK' | 'Error'; message: string }> {
    const test = credentialType('trawlApi').test;
    const nodeType = { description: { name: 'credtest', displayName: 'Credential test', version: 1, group: ['input'], defaults: {}, inputs: ['main'], outputs: ['main'],
      credentials: [{ name: 'trawlApi', required: true }], properties: [{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: test.request } }] } };
    const node = { id: 'temp', name: 'Temp-Node', type: 'credtest', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { trawlApi: { id: 'c1', name: 'test' } } };
    const workflow = new wf.Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: { ...nodeTypes, getByName: () => nodeType, getByNameAndVersion: () => nodeType } });
    const data = additionalData(creds);
    const context = new core.ExecuteContext(workflow, node, data, 'internal', { resultData: { runData: {} } }, 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
    try {
      await new core.RoutingNode(context, nodeType, { id: 'c1', name: 'test', type: 'trawlApi', data: { ...creds } }).runNode();
    } catch (e: any) {
      const status = e.cause?.response?.status ?? (e.httpCode ? Number(e.httpCode) : undefined);
      const rule = (test.rules ?? []).find((r: any) => r.type === 'responseCode' && r.properties.value === status);
      if (rule) return { status: 'Error', message: rule.properties.message };
      if (status && (status < 200 || status > 299)) return { status: 'Error', message: e.cause?.response?.statusText || `Received HTTP status code: ${status}` };
      return { status: 'Error', message: e.cause?.code ?? e.message };
    }
    return { status: 'OK', message: 'Connection successful!' };
  }

  /** The trigger's webhook as n8n registers it: its hooks (checkExists, create, delete) and its delivery handler. */
  function trigger(json: any, creds: Creds, webhookBaseUrl: string) {
    const workflow = workflowOf(json);
    const node = workflow.getNode(json.nodes[0].name);
    const type = typeOf(node.type);
    const description = type.description.webhooks[0];
    const data = additionalData(creds, { webhookBaseUrl }, json);
    const webhookData = { httpMethod: description.httpMethod, node: node.name, path: `${node.webhookId}/${description.path}`, webhookDescription: description, workflowId: workflow.id, workflowExecuteAdditionalData: data };
    const hook = (method: 'checkExists' | 'create' | 'delete', activation = 'activate') => type.webhookMethods.default[method].call(new core.HookContext(workflow, node, data, 'trigger', activation, webhookData));
    return {
      workflow, path: `/${webhookData.path}`,
      /** What n8n does when the workflow is activated: subscribe unless the subscription exists. */
      async activate() { if (!(await hook('checkExists'))) await hook('create'); },
      deactivate: () => hook('delete'),
      /** One delivery (the raw body and headers as received) through the node's webhook(). */
      async deliver(raw: Buffer, headers: Record<string, string>, response: { status(n: number): any; send(x: unknown): any }) {
        const request = { body: JSON.parse(raw.toString('utf8')), rawBody: raw, headers, query: {}, params: {} };
        const context = new core.WebhookContext(workflow, node, { ...data, httpRequest: request, httpResponse: response }, 'trigger', webhookData, [], null);
        return type.webhook.call(context);
      },
    };
  }

  return { core, wf, loader, run, testCredential, trigger };
}
