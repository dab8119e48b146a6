import { monitorConformance } from './conformance.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../postgres/testing.ts';

const url = pgTestUrl();
monitorConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });
