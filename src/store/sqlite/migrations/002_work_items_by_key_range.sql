-- A work item's id is `<request id>:<query index>`, so the items of one request are one range of the
-- primary key. The separate index on request_id was a second B-tree keyed by a random UUID v4: every
-- submit dirtied one more random page per commit (40 -> 30 µs per 1-query submit in isolation,
-- docs/performance/api.md). Its two users now scan the key range.
DROP INDEX IF EXISTS work_items_request;
