/**
 * Account self-service operations beyond the interface's list (its account page manages keys and
 * shows usage, section 5.1; the interface gives no paths for them): API keys, usage per day and prices.
 * Public operations any API client can call with its own key; the dashboard uses nothing else.
 */
import { Type, int } from './dsl.ts';
import * as R from './records.ts';
import type { AccountOperation } from './operation.ts';

const S = Type.String();
const E = R.errorBody;

export const apiKeyItem = Type.Object({
  id: S, prefix: Type.String({ description: 'First characters of the key: enough to tell keys apart, never enough to use it.' }),
  created: Type.Integer({ description: 'Unix seconds.' }), revoked: Type.Union([Type.Integer(), Type.Null()], { description: 'Unix seconds, or null while active.' }),
}, { description: 'An API key as listed: the key itself is shown only once, when created.' });

export const usageDays = Type.Object({
  currency: S,
  days: Type.Array(Type.Object({
    date: Type.String({ description: 'UTC day, YYYY-MM-DD.' }),
    products: Type.Array(Type.Object({ product_name: S, unit: S, quantity: Type.Integer(), amount: Type.Number({ description: 'Rounded to the currency\'s precision.' }),
      amount_micros: Type.Integer({ description: 'The exact amount in millionths of the currency.' }) })),
  })),
}, { description: 'Usage per product per UTC day, oldest day first.' });

export const priceList = Type.Object({
  currency: S,
  prices: Type.Array(Type.Object({
    product: Type.String({ description: 'Product billed (a data endpoint\'s service id, an enrichment, or businesses).' }),
    unit: Type.String({ description: 'What one unit is (place, review, ...).' }),
    endpoint: Type.Optional(Type.String({ description: 'The data endpoint billed as this product.' })),
    unit_price: Type.String({ description: 'Price of one unit in the account\'s currency, exact decimal text.' }),
    unit_price_micros: Type.Integer({ description: 'The same price in millionths of the currency (exact, for arithmetic).' }),
  })),
}, { description: 'The account\'s price of every product: its own price where the operator set one, else the default.' });

export const profileOperations: AccountOperation[] = [
  { method: 'GET', path: '/profile/keys', summary: 'The account\'s API keys (active and revoked), newest first; never the keys themselves.',
    answers: { 200: Type.Array(apiKeyItem), 401: E } },
  { method: 'POST', path: '/profile/keys', summary: 'Creates an API key; the answer is the only time the key is shown.',
    answers: { 200: Type.Object({ id: S, api_key: S, prefix: S, created: Type.Integer() }), 401: E } },
  { method: 'DELETE', path: '/profile/keys/{keyId}', summary: 'Revokes an API key of the account (the last active key cannot be revoked).',
    params: { keyId: Type.String({ maxLength: 100 }) }, answers: { 200: Type.Object({ revoked: S }), 401: E, 404: E, 422: E } },
  { method: 'GET', path: '/profile/usage', summary: 'Usage per product per UTC day over the last `days` days (today included).',
    params: { days: int({ min: 1, max: 92, def: 30, doc: 'Number of UTC days, today included.' }) }, answers: { 200: usageDays, 401: E, 422: E } },
  { method: 'GET', path: '/profile/prices', summary: 'The account\'s price of every product (data endpoints, enrichments, business search): what a request will cost before it runs.',
    answers: { 200: priceList, 401: E } },
];
