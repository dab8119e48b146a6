/**
 * trawl signs every webhook as `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` keyed
 * with the account's webhook secret; compared in constant time over the bytes as received.
 */
import { createHmac, timingSafeEqual } from 'crypto';

export function signatureMatches(raw: Buffer, header: string | undefined, secret: string): boolean {
	if (!header || !header.startsWith('sha256=')) return false;
	const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
	const given = Buffer.from(header);
	return given.length === expected.length && timingSafeEqual(given, expected);
}
