-- The accounts with unfinished requests and each one's oldest, for the fair claim's walk over them
-- (issue 37, session 16; src/store/postgres/items.ts FAIR_HEADS, as SQLite's requests_open_by_account).
-- A request's row is written again when it ends, and the entry of its unfinished version stays in an
-- index until VACUUM: read through requests_finished by a bitmap scan, each claim visited every such
-- version (3,700 dead entries and the whole table's 142 pages, 0.9 ms, after 7,000 requests with
-- autovacuum off; between two autovacuums of a large table, up to a fifth of it). Walked one entry
-- at a time instead, an index scan marks each dead entry as it passes it, so later claims skip it.
CREATE INDEX IF NOT EXISTS requests_unfinished ON requests(account_id, created_at, id) WHERE finished_at IS NULL;
