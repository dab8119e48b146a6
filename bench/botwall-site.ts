/** The bot wall's site process (bench/botwall-lib.ts `startSite`): the wall and its proxies, options as JSON in argv. */
import { serveSite, type SiteOptions } from './botwall-lib.ts';

await serveSite(JSON.parse(process.argv[2] ?? '{}') as SiteOptions);
