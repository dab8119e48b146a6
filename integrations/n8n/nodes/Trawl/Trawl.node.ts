/**
 * The Trawl node: declarative (routing in the properties, generated from trawl's contract into
 * Trawl.generated.ts), so every data endpoint, requests, balance, businesses and monitors are its
 * operations. A data operation submits the request, waits for its records up to "Wait Up To" seconds
 * (else answers the request id) and outputs one item per record, paired with the input item that
 * asked. Usable as a tool by n8n's AI agents.
 */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { properties } from './Trawl.generated';

export class Trawl implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trawl',
		name: 'trawl',
		icon: 'file:trawl.svg',
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Extract data with trawl: map places, reviews, listings and lookups, the business database, monitors',
		defaults: { name: 'Trawl' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'trawlApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json' },
			json: true,
			// Lists as repeated keys (query=a&query=b), as trawl reads them.
			arrayFormat: 'repeat',
			// Every status reaches the routing's functions, which fail with trawl's own reason (errorMessage).
			ignoreHttpStatusErrors: true,
		},
		properties,
	};
}
