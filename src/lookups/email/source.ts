/**
 * `/email-validator` and `/emails-finder`: the registry rows (lists and probes load on first use).
 */
import { defineSource } from '../../sources/_kit/source.ts';

export const emailValidator = defineSource({
  endpoint: '/email-validator',
  adapter: async () => (await import('./adapters.ts')).emailValidatorAdapter,
  verifiedBy: 'shipped data and loopback DNS/SMTP peers',
});

export const emailsFinder = defineSource({
  endpoint: '/emails-finder',
  adapter: async () => (await import('./adapters.ts')).emailsFinderAdapter,
  verifiedBy: 'shipped data and loopback DNS/SMTP peers',
});
