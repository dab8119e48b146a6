-- The queries of a request that are not work items yet (issue 39): a request of more than
-- ITEMS_AT_ONCE (1000) queries is stored with no item and its queries here, one row per
-- chunk of up to 1000 (`queries`: a JSON array, the first at query index `from_index`), until
-- writeWaitingItems turns a chunk into items and deletes it in one statement. Any process writes
-- them (a chunk being written is skipped, not waited for), after a crash too, so nothing accepted is
-- lost. Inserting 10,000 items (a foreign key and four indexes each) took 82-89 ms of the server on
-- a quiet box, the whole of a 10,000-query task's answer past its 100 ms target.
CREATE TABLE IF NOT EXISTS waiting_items (
  request_id text NOT NULL,
  from_index integer NOT NULL,
  n integer NOT NULL,
  queries text NOT NULL,
  max_attempts integer NOT NULL,
  run_after bigint NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (request_id, from_index)
);
CREATE INDEX IF NOT EXISTS waiting_items_oldest ON waiting_items(created_at, request_id, from_index);
