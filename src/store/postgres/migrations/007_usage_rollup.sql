-- The janitor's usage roll-up (src/app/janitor.ts) finds lines not yet merged by age: a partial index
-- so the walk never reads the merged day lines (kept for good) nor the whole ledger.
CREATE INDEX usage_unmerged_time ON usage(created_at) WHERE item_key NOT LIKE 'day:%';
