/**
 * The maps enrichment `disposable_email_checker`: list lookup only, no network.
 */
import { disposableHit } from './lists.ts';
import { domainOf } from './syntax.ts';

/**
 * Whether the address's domain (or a parent of it) is a disposable-address domain.
 * @example isDisposableEmail('someone@sub.mailinator.com') // true
 * @example isDisposableEmail('jane@gmail.com') // false
 */
export function isDisposableEmail(address: string): boolean {
  const domain = domainOf(address);
  return domain !== null && disposableHit(domain) !== null;
}
