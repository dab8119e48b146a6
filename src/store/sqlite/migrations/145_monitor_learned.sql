-- What a monitor's last runs learned of the site's view cap (issue 33): the counts views proved
-- capped at, the highest count shown complete, each query's own view's count (JSON). Its next run
-- reads them as a prior it still re-checks (src/monitors/signal.ts). Null until a run learned any.
ALTER TABLE monitors ADD COLUMN learned TEXT;
