import { queueConformance } from '../conformance.ts';
import { EmbeddedQueue } from './embedded.ts';
import { openSqliteStore } from '../../store/sqlite/store.ts';

queueConformance('embedded', async () => {
  const store = await openSqliteStore(':memory:');
  return { store, queue: new EmbeddedQueue(store, 50), queue2: new EmbeddedQueue(store, 50) };
});
