import { businessConformance } from './conformance.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../postgres/testing.ts';

const url = pgTestUrl();
businessConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });
import { businessFilterConformance } from './conformance-filters.ts';

businessFilterConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });
