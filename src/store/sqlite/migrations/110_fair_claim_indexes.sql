-- The fair claim's two look-ups, each an index seek whatever the backlog (issue 39: at 1 M queued
-- items a claim scanned every unfinished request and, in each, the items before its first queued
-- one; 2.65 s a claim):
-- the accounts with unfinished requests, and each one's requests oldest first;
CREATE INDEX IF NOT EXISTS requests_open_by_account ON requests(account_id, created_at) WHERE finished_at IS NULL;
-- a request's first queued item (its key range holds done and leased items too).
CREATE INDEX IF NOT EXISTS work_items_queued ON work_items(id) WHERE state = 'queued';
