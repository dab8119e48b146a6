import { monitorConformance } from './conformance.ts';
import { openSqliteStore } from '../sqlite/store.ts';

monitorConformance('sqlite', () => openSqliteStore(':memory:'));
