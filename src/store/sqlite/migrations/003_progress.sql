-- Durable paged queries (issue 9): a query checkpoints after every step, so a retry or a crashed
-- worker resumes from its last finished step instead of its plan.
-- item_progress: the runner's resume state of one running query (steps still to run, counters), as
-- JSON text the store does not read; `chunks` and `records` count what result_chunks holds for it.
CREATE TABLE item_progress (
  request_id TEXT NOT NULL,
  query_index INTEGER NOT NULL,
  state TEXT NOT NULL,
  chunks INTEGER NOT NULL DEFAULT 0,
  records INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (request_id, query_index)
) WITHOUT ROWID;
-- The records of a query written step by step (each a JSON array text), before its completion.
-- A streamed query keeps them as its result (results.chunks says how many precede results.records);
-- a buffered one (an adapter that merges at the end) has them deleted when it completes.
CREATE TABLE result_chunks (
  request_id TEXT NOT NULL,
  query_index INTEGER NOT NULL,
  chunk INTEGER NOT NULL,
  records TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (request_id, query_index, chunk)
);
ALTER TABLE results ADD COLUMN chunks INTEGER NOT NULL DEFAULT 0;
-- Per-deployment secrets shared by API and workers (the HMAC key of next_page_cursor).
CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
