import { businessConformance } from './conformance.ts';
import { openSqliteStore } from '../sqlite/store.ts';

businessConformance('sqlite', () => openSqliteStore(':memory:'));
import { businessFilterConformance } from './conformance-filters.ts';

businessFilterConformance('sqlite', () => openSqliteStore(':memory:'));
