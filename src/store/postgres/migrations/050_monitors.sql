-- Monitors (issue 29; src/store/monitors/contract.ts). Numbered apart from the sequence the other parts
-- grow by, so changes made side by side do not collide. JSON values are kept as text.
CREATE TABLE monitors (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT,
  endpoint TEXT NOT NULL,
  queries TEXT NOT NULL,
  params TEXT NOT NULL,
  schedule TEXT NOT NULL,
  compare TEXT NOT NULL,
  webhook TEXT,
  status TEXT NOT NULL,
  next_run_at BIGINT,
  last_run_at BIGINT,
  runs INTEGER NOT NULL DEFAULT 0,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX monitors_account ON monitors (account_id, id);
CREATE INDEX monitors_due ON monitors (next_run_at) WHERE status = 'active';

-- One row per due time of a monitor: the unique pair is what makes a run start once.
CREATE TABLE monitor_runs (
  id TEXT PRIMARY KEY,
  monitor_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  due_at BIGINT NOT NULL,
  request_id TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  counts TEXT NOT NULL,
  claimed_at BIGINT NOT NULL,
  finished_at BIGINT,
  baseline INTEGER NOT NULL,
  UNIQUE (monitor_id, due_at)
);
CREATE INDEX monitor_runs_status ON monitor_runs (status, claimed_at);

CREATE TABLE monitor_changes (
  seq BIGSERIAL PRIMARY KEY,
  monitor_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  kind TEXT NOT NULL,
  identity TEXT NOT NULL,
  field TEXT,
  before TEXT,
  after TEXT,
  record TEXT
);
CREATE INDEX monitor_changes_monitor ON monitor_changes (monitor_id, seq);

-- What each monitor saw of each record last time: the compared fields' values.
CREATE TABLE monitor_seen (
  monitor_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  vals TEXT NOT NULL,
  PRIMARY KEY (monitor_id, identity)
);
