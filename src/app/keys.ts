/**
 * API keys and webhook secrets. Keys are random, shown once, stored only as SHA-256 hashes
 * (decision 18) and compared in constant time.
 *
 * @example
 *   const key = newApiKey();            // 'trw_...'
 *   hashKey(key)                       // hex SHA-256
 *   sameHash(hashKey(key), stored)     // constant-time
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newApiKey = () => `trw_${randomBytes(24).toString('base64url')}`;
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
/** Enough of a key to tell keys apart in listings, never enough to use it. */
export const keyPrefix = (key: string) => key.slice(0, 8);

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
