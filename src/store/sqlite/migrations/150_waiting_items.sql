-- The queries of a request that are not work items yet (issue 39): a request of more than
-- ITEMS_AT_ONCE (1000) queries is stored with no item and its queries here, one row per
-- chunk of up to 1000 (`queries`: a JSON array, the first at query index `from_index`), until
-- writeWaitingItems turns a chunk into items and deletes it in one transaction. Any process writes
-- them, after a crash too, so nothing accepted is lost.
CREATE TABLE IF NOT EXISTS waiting_items (
  request_id TEXT NOT NULL,
  from_index INTEGER NOT NULL,
  n INTEGER NOT NULL,
  queries TEXT NOT NULL,
  max_attempts INTEGER NOT NULL,
  run_after INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (request_id, from_index)
);
CREATE INDEX IF NOT EXISTS waiting_items_oldest ON waiting_items(created_at, request_id, from_index);
