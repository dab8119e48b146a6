/**
 * E-mail lookups: `/email-validator`, `/emails-finder`, and the maps enrichments
 * `emails_validator_service` (validateEmail) and `disposable_email_checker` (isDisposableEmail).
 * @example
 *   import { validateEmail, isDisposableEmail } from './lookups/email/index.ts';
 *   const rec = await validateEmail('jane@example.com', { dnsServers: ['127.0.0.1:5353'], smtpPort: 2525 });
 */
export { emailValidatorAdapter, emailsFinderAdapter } from './adapters.ts';
export { validateEmail, validateWith, checkEmailOffline } from './validate.ts';
export type { EmailRecord, EmailStatus, ValidateOptions } from './validate.ts';
export { findEmail, findWith, parseFinderQuery } from './finder.ts';
export type { FinderRecord, FinderQuery } from './finder.ts';
export { isDisposableEmail } from './disposable.ts';
export { EmailVerifier, verifierFor } from './verifier.ts';
export { DEFAULT_EMAIL_SETTINGS, resolveEmailSettings } from './settings.ts';
export type { EmailSettings } from './settings.ts';
export { checkSyntax } from './syntax.ts';
export type { SyntaxResult } from './syntax.ts';
export { preloadLists, listSizes } from './lists.ts';
