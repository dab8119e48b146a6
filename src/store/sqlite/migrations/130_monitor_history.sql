-- Monitor runs and changes are purged past their retention (issue 39: 200 monitors at one run a
-- minute add 288,000 run rows a day): the janitor finds the oldest by these, a batch at a time.
CREATE INDEX IF NOT EXISTS monitor_runs_finished ON monitor_runs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS monitor_changes_at ON monitor_changes (at);
