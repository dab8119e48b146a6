/**
 * `/email-validator` and `/emails-finder`: the registry rows (lists and probes load on first use).
 */
import { defineSource } from '../../sources/_kit/source.ts';
import { onLookupThread } from '../threaded.ts';

// On the lookup thread: importing the probes and loading the lists take 0.4-0.9 s of CPU (issue 15);
// this thread keeps the submit-time checks, from modules that load no data.
const adapters = new URL('./adapters.ts', import.meta.url);

export const emailValidator = defineSource({
  endpoint: '/email-validator',
  adapter: async () => onLookupThread({ kind: 'local', endpoint: '/email-validator', checkQuery: (await import('./check.ts')).checkValidatorQuery }, adapters, 'emailValidatorAdapter'),
  verifiedBy: 'shipped data and loopback DNS/SMTP peers',
});

export const emailsFinder = defineSource({
  endpoint: '/emails-finder',
  adapter: async () => onLookupThread({ kind: 'local', endpoint: '/emails-finder', checkQuery: (await import('./check.ts')).checkFinderQuery }, adapters, 'emailsFinderAdapter'),
  verifiedBy: 'shipped data and loopback DNS/SMTP peers',
});
