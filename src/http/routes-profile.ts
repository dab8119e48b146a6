/** Handlers of the account self-service operations (src/contract/profile.ts); registered with the account routes. */
import type { Handler } from './request.ts';
import { createKey, listKeys, priceList, revokeKey, usagePerDay } from '../app/profile.ts';

export const profileHandlers: Record<string, Handler> = {
  'GET /profile/keys': async (ctx, req) => listKeys(ctx, req.account!.id),
  'POST /profile/keys': async (ctx, req) => createKey(ctx, req.account!.id),
  'DELETE /profile/keys/{keyId}': async (ctx, req) => revokeKey(ctx, req.account!.id, (req.params as { keyId: string }).keyId),
  'GET /profile/usage': async (ctx, req, _r, p) => usagePerDay(ctx, req.account!, p.days as number),
  'GET /profile/prices': async (ctx, req) => priceList(ctx, req.account!),
};
