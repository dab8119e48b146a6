/**
 * The functions the generated routing names (Trawl.generated.ts): each answer becomes output items
 * paired with the input item that asked (so an input item never multiplies into unrelated outputs),
 * and a data request is waited for up to the node's "Wait Up To" seconds, else its id is the answer.
 */
import type { IDataObject, IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { reasonOf, trawl } from '../shared/api';

type PostReceive = (this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse) => Promise<INodeExecutionData[]>;

const paired = (ctx: IExecuteSingleFunctions, json: IDataObject): INodeExecutionData => ({ json, pairedItem: { item: ctx.getItemIndex() } });

function refused(ctx: IExecuteSingleFunctions, answer: IN8nHttpFullResponse, message: string): NodeApiError {
	const body = answer.body && typeof answer.body === 'object' ? (answer.body as JsonObject) : { message: String(answer.body ?? '') };
	return new NodeApiError(ctx.getNode(), body, { message, httpCode: String(answer.statusCode), itemIndex: ctx.getItemIndex() });
}

/** One item per entry of `list` (a paged answer's entries), of an array answer's elements, else the answer. */
export function answerItems(list?: string): PostReceive {
	return async function (this: IExecuteSingleFunctions, _items, response) {
		if (response.statusCode >= 400) throw refused(this, response, reasonOf(response));
		const body = response.body as unknown;
		let entries: unknown[];
		if (typeof body === 'string' || body === undefined || body === null) entries = [{ message: String(body ?? '') }];
		else if (Array.isArray(body)) entries = body;
		else if (list && Array.isArray((body as IDataObject)[list])) entries = (body as IDataObject)[list] as unknown[];
		else entries = [body];
		return entries.map((e) => paired(this, (e && typeof e === 'object' ? e : { value: e }) as IDataObject));
	};
}

/** The request's records as items, or undefined while it runs; a failed request is an error. */
function recordsOf(ctx: IExecuteSingleFunctions, id: string, answer: IN8nHttpFullResponse): INodeExecutionData[] | undefined {
	if (answer.statusCode === 204) {
		const why = answer.headers?.['x-request-error'];
		throw refused(ctx, answer, `Request ${id} failed: ${typeof why === 'string' ? why : 'no query succeeded'}`);
	}
	if (answer.statusCode >= 400) throw refused(ctx, answer, reasonOf(answer));
	const body = (answer.body ?? {}) as IDataObject;
	if (answer.statusCode === 202 || body.status === 'Pending') {
		if (body.expired) throw refused(ctx, answer, `Request ${id}'s results are gone: they are kept 4 hours after it ends`);
		return undefined;
	}
	const records = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	const errors = Array.isArray(body.errors) ? (body.errors as IDataObject[]) : [];
	if (!records.length && errors.length) throw refused(ctx, answer, `Request ${id} found nothing: ${JSON.stringify(errors[0])}`);
	return records.map((r) => paired(ctx, r));
}

/**
 * After a data request was submitted (202 with its id) or a request was read (Request → Get Records):
 * its records, one item each, as soon as it ends; polled with growing pauses up to "Wait Up To"
 * seconds, past which the item is `{request_id, status: "Pending", ...}` to fetch later.
 */
export const waitForRecords: PostReceive = async function (this: IExecuteSingleFunctions, _items, response) {
	const body = (response.body ?? {}) as IDataObject;
	const submitted = response.statusCode === 202 && typeof body.id === 'string' && !('data' in body);
	const id = String(submitted ? body.id : this.getNodeParameter('requestId', ''));
	const waitS = Number(this.getNodeParameter('waitSeconds', 60));
	const fields = String(this.getNodeParameter('options.fields', '') ?? '') || undefined;
	const deadline = Date.now() + waitS * 1000;
	const pending = () => [paired(this, {
		request_id: id, status: 'Pending',
		message: `${waitS > 0 ? `Still running after ${waitS} s` : 'Submitted'}: fetch its records with Request → Get Records and this request_id (results are kept 4 hours after it ends).`,
	})];
	// Wait 0: the request id at once, whether or not it has already ended.
	if (submitted && waitS <= 0) return pending();
	let answer: IN8nHttpFullResponse | undefined = submitted ? undefined : response;
	let pause = 250;
	for (;;) {
		answer ??= await trawl(this, 'GET', `/requests/${encodeURIComponent(id)}`, { qs: { flat: true, ...(fields ? { fields } : {}) } });
		const records = recordsOf(this, id, answer);
		if (records) return records;
		const left = deadline - Date.now();
		if (left <= 0) return pending();
		await sleep(Math.min(pause, left));
		pause = Math.min(pause * 2, 5000);
		answer = undefined;
	}
};
