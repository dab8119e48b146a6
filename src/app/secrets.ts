/**
 * Webhook signing secrets at rest. With SECRET_KEY set, a secret is stored sealed (AES-256-GCM under
 * a key derived from SECRET_KEY with scrypt), so a copy of the database alone cannot forge webhook
 * signatures. Without SECRET_KEY secrets are stored as they are. Secrets stored before SECRET_KEY was
 * set stay readable and are sealed when next rotated. See docs/operations.md, "SECRET_KEY".
 *
 * @example
 *   const stored = sealSecret('whsec_abc', 'operator key');   // 'enc1:...'
 *   openSecret(stored, 'operator key')                        // 'whsec_abc'
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const PREFIX = 'enc1:';
const derived = new Map<string, Buffer>();

/** The AES key of a SECRET_KEY (scrypt is slow on purpose: derived once per process). */
function keyOf(secretKey: string): Buffer {
  let k = derived.get(secretKey);
  if (!k) {
    k = scryptSync(secretKey, 'trawl webhook secrets v1', 32);
    derived.set(secretKey, k);
  }
  return k;
}

/** The form a secret is stored in: sealed when a SECRET_KEY is given, as is otherwise. */
export function sealSecret(plain: string, secretKey: string | undefined): string {
  if (!secretKey) return plain;
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(secretKey), iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return PREFIX + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
}

/** The secret itself, from its stored form. Throws when it is sealed and the key is missing or wrong. */
export function openSecret(stored: string, secretKey: string | undefined): string {
  if (!stored.startsWith(PREFIX)) return stored;
  if (!secretKey) throw new Error('a webhook secret is stored sealed, but SECRET_KEY is not set');
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  const d = createDecipheriv('aes-256-gcm', keyOf(secretKey), raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch {
    throw new Error('a webhook secret cannot be opened with this SECRET_KEY');
  }
}
