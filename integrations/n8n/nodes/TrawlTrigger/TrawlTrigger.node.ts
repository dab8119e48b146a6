/**
 * The Trawl Trigger: when the workflow is activated it subscribes the node's webhook URL to the
 * chosen events (POST /webhooks), when deactivated it removes the subscription (DELETE /webhooks/{id});
 * each delivery's X-Hub-Signature-256 is checked against the account's webhook secret over the raw
 * body before the workflow runs (a forged or altered delivery is answered 401 and starts nothing).
 */
import type { IDataObject, IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';
import { reasonOf, trawl } from '../shared/api';
import { webhookEvents } from '../Trawl/Trawl.generated';
import { signatureMatches } from './signature';

type Stored = { subscriptionId?: string };

export class TrawlTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trawl Trigger',
		name: 'trawlTrigger',
		icon: 'file:trawl.svg',
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when trawl signals an event: a request finished, a task file is ready, a monitor found changes',
		defaults: { name: 'Trawl Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'trawlApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['request.finished'],
				options: webhookEvents,
				description: 'The events that start the workflow (for every request of the account)',
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const stored = this.getWorkflowStaticData('node') as Stored;
				if (!stored.subscriptionId) return false;
				const answer = await trawl(this, 'GET', '/webhooks');
				if (answer.statusCode !== 200) throw new NodeApiError(this.getNode(), { message: reasonOf(answer) }, { message: reasonOf(answer) });
				const url = this.getNodeWebhookUrl('default');
				const events = [...(this.getNodeParameter('events') as string[])].sort().join(',');
				const found = ((answer.body as IDataObject).webhooks as IDataObject[]).find((w) => w.id === stored.subscriptionId);
				if (found && found.url === url && [...(found.events as string[])].sort().join(',') === events) return true;
				// Gone, or subscribed for other events: subscribe anew (the old one, if any, is removed).
				if (found) await trawl(this, 'DELETE', `/webhooks/${encodeURIComponent(stored.subscriptionId)}`);
				delete stored.subscriptionId;
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const stored = this.getWorkflowStaticData('node') as Stored;
				const body = {
					url: this.getNodeWebhookUrl('default'),
					events: this.getNodeParameter('events') as string[],
					description: `n8n workflow ${this.getWorkflow().id ?? ''} node ${this.getNode().name}`.slice(0, 200),
				};
				const answer = await trawl(this, 'POST', '/webhooks', { body });
				if (answer.statusCode !== 200) throw new NodeApiError(this.getNode(), { message: reasonOf(answer) }, { message: `trawl refused the subscription: ${reasonOf(answer)}` });
				stored.subscriptionId = String((answer.body as IDataObject).id);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const stored = this.getWorkflowStaticData('node') as Stored;
				if (!stored.subscriptionId) return true;
				const answer = await trawl(this, 'DELETE', `/webhooks/${encodeURIComponent(stored.subscriptionId)}`);
				// 404: already gone (deleted elsewhere); either way this node holds none now.
				if (answer.statusCode !== 200 && answer.statusCode !== 404) return false;
				delete stored.subscriptionId;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject() as unknown as { rawBody?: Buffer; body: IDataObject };
		const signature = this.getHeaderData()['x-hub-signature-256'];
		const res = this.getResponseObject();
		const secretAnswer = await trawl(this, 'GET', '/profile/webhook-secret');
		const secret = (secretAnswer.body as IDataObject | undefined)?.webhook_secret;
		if (secretAnswer.statusCode !== 200 || typeof secret !== 'string') {
			res.status(503).send(`cannot check the signature: ${reasonOf(secretAnswer)}`);
			return { noWebhookResponse: true };
		}
		if (!req.rawBody || !signatureMatches(req.rawBody, typeof signature === 'string' ? signature : undefined, secret)) {
			res.status(401).send('signature mismatch');
			return { noWebhookResponse: true };
		}
		const stored = this.getWorkflowStaticData('node') as Stored;
		const body = req.body;
		// A delivery for another subscription (one this node no longer holds) starts nothing.
		if (stored.subscriptionId && body.subscription_id !== stored.subscriptionId) return { webhookResponse: 'ignored: not this subscription' };
		return { workflowData: [this.helpers.returnJsonArray(body)] };
	}
}
