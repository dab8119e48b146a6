/**
 * The Trawl API credential: the address of a trawl (self-hosted or not) and an API key of its account.
 * Every call sends the key as X-API-KEY; the test reads the balance (free, and refused without a
 * valid key), so a wrong key or address fails at save with the reason.
 */
import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class TrawlApi implements ICredentialType {
	name = 'trawlApi';

	displayName = 'Trawl API';

	icon = 'file:trawl.svg' as const;

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-trawl';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:8080',
			placeholder: 'https://trawl.example.com',
			description: 'Where your trawl answers (its BASE_URL), without a path',
			required: true,
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'A key of your account (trw_...): printed at the first start, or made with POST /profile/keys',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'X-API-KEY': '={{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: '/profile/balance', method: 'GET' },
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: 'The API key was refused (401): check it, or make one with POST /profile/keys' } },
			{ type: 'responseCode', properties: { value: 404, message: 'No trawl answers at this Base URL (404 on /profile/balance): give the address without a path' } },
		],
	};
}
