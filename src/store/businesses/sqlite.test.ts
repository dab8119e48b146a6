import { businessConformance } from './conformance.ts';
import { openSqliteStore } from '../sqlite/store.ts';

businessConformance('sqlite', () => openSqliteStore(':memory:'));
