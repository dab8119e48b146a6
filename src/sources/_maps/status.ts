/**
 * Business status, verification and service-area flag. The node has no language-neutral closure
 * flag we could find in the captures; the status line (`[34][4][4]`, `[203][1][4][0]`) reads
 * "Permanently closed" / "Temporarily closed" in the page language instead of the day's hours.
 */
import { asStr, at1, at2, at3 } from './pos.ts';

// Stems in the languages most used with the service; anything else reads as operating.
const PERMANENT = /permanent|dauerhaft|définitivement|definitiv|definitivamente|permanentemente|οριστικά|навсегда|永久|폐업/i;
const TEMPORARY = /temporar|vorübergehend|temporairement|temporalmente|temporaneamente|tijdelijk|προσωρινά|временно|一時|임시/i;

/**
 * @example
 *   businessStatus(node) // 'OPERATIONAL'
 */
export function businessStatus(node: unknown): 'OPERATIONAL' | 'CLOSED_TEMPORARILY' | 'CLOSED_PERMANENTLY' {
  const today = at2(node, 203, 1);
  return closure(asStr(at3(node, 34, 4, 4))) ?? closure(asStr(at2(today, 4, 0))) ?? closure(asStr(at2(today, 5, 0))) ?? 'OPERATIONAL';
}

function closure(line: string | null): 'CLOSED_TEMPORARILY' | 'CLOSED_PERMANENTLY' | null {
  if (!line) return null;
  if (PERMANENT.test(line)) return 'CLOSED_PERMANENTLY';
  if (TEMPORARY.test(line)) return 'CLOSED_TEMPORARILY';
  return null;
}

const OWNER_ID = /^\d{5,}$/;

/**
 * The owner's id: `[57][2]` on place pages, `[181][6]` / `[227][0][6]` in search results.
 */
export function ownerId(node: unknown): string | null {
  return ownerDigits(at2(node, 57, 2)) ?? ownerDigits(at2(node, 181, 6)) ?? ownerDigits(at3(node, 227, 0, 6));
}

function ownerDigits(v: unknown): string | null {
  return typeof v === 'string' && OWNER_ID.test(v) ? v : null;
}

/**
 * Verified (claimed by its owner): true when the node names an owner; false when it offers the
 * "Claim this business" link (`[49][0]`, a business.google.com create URL); null otherwise.
 */
export function verified(node: unknown, owner: string | null): boolean | null {
  if (owner) return true;
  const claim = asStr(at2(node, 49, 0));
  return claim && claim.includes('business.google.com') ? false : null;
}

/**
 * A service-area business hides its street address; a node with a street address is not one.
 * Without an address we cannot tell (null).
 */
export function areaService(street: string | null, addressLines: unknown[] | null): boolean | null {
  return street || (addressLines && addressLines.length > 0) ? false : null;
}

