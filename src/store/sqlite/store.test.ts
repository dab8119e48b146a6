import { storeConformance } from '../conformance.ts';
import { openSqliteStore } from './store.ts';

storeConformance('sqlite', () => openSqliteStore(':memory:'));
