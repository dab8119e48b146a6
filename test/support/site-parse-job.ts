/**
 * serve-test's parse threads (./serve-test.ts with MAP_SITE_URL): the service's parse job over the
 * adapters it serves (./site-adapters.ts, read from the same environment), so an area's plan and
 * pages run on a parse thread there as they do in `trawl serve`.
 */
import { jobOf } from '../../src/engine/parse-job.ts';
import { siteAdapters } from './site-adapters.ts';

export default jobOf(siteAdapters());
