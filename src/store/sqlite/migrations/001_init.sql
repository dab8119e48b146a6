-- Accounts, keys and prices.
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  balance REAL NOT NULL DEFAULT 0,
  credit_limit REAL NOT NULL DEFAULT 0,
  currency TEXT NOT NULL DEFAULT 'usd',
  past_due INTEGER NOT NULL DEFAULT 0,
  webhook_secret TEXT NOT NULL,
  webhook_url TEXT,
  rate_per_sec REAL NOT NULL DEFAULT 20,
  burst INTEGER NOT NULL DEFAULT 40,
  created_at INTEGER NOT NULL
);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX api_keys_account ON api_keys(account_id);
-- account_id '' is the default price of a product.
CREATE TABLE prices (
  account_id TEXT NOT NULL DEFAULT '',
  product TEXT NOT NULL,
  unit_price REAL NOT NULL,
  PRIMARY KEY (account_id, product)
);

-- Requests, their work items and results.
CREATE TABLE requests (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  params TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'Pending',
  queries_total INTEGER NOT NULL,
  queries_done INTEGER NOT NULL DEFAULT 0,
  queries_ok INTEGER NOT NULL DEFAULT 0,
  records INTEGER NOT NULL DEFAULT 0,
  usage INTEGER NOT NULL DEFAULT 0,
  webhook TEXT,
  product TEXT NOT NULL,
  unit TEXT NOT NULL,
  unit_price REAL NOT NULL,
  empty_costs_one INTEGER NOT NULL,
  drop_duplicates INTEGER NOT NULL,
  cancelled INTEGER NOT NULL DEFAULT 0,
  task_id TEXT,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX requests_account_created ON requests(account_id, created_at DESC);
CREATE INDEX requests_finished ON requests(finished_at);

CREATE TABLE work_items (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL REFERENCES requests(id),
  query_index INTEGER NOT NULL,
  query TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued',
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  run_after INTEGER NOT NULL,
  error TEXT
);
CREATE INDEX work_items_runnable ON work_items(state, run_after);
CREATE INDEX work_items_request ON work_items(request_id);

CREATE TABLE results (
  request_id TEXT NOT NULL,
  query_index INTEGER NOT NULL,
  records TEXT NOT NULL,
  count INTEGER NOT NULL,
  error TEXT,
  PRIMARY KEY (request_id, query_index)
);

-- Usage ledger: one line per billed work item (or per request when billed at its end).
CREATE TABLE usage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  item_key TEXT NOT NULL UNIQUE,
  product TEXT NOT NULL,
  unit TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  unit_price REAL NOT NULL,
  amount REAL NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX usage_account_time ON usage(account_id, created_at);

-- Webhooks.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  url TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER,
  state TEXT NOT NULL DEFAULT 'pending',
  lease_until INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_at);
CREATE TABLE webhook_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhook_calls_account ON webhook_calls(account_id, created_at DESC);

-- UI tasks.
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  request_id TEXT,
  service_name TEXT NOT NULL,
  queries TEXT NOT NULL,
  tags TEXT NOT NULL,
  spec TEXT NOT NULL,
  status TEXT NOT NULL,
  format TEXT NOT NULL,
  file_token TEXT UNIQUE,
  file_path TEXT,
  results TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  queue_task_id TEXT NOT NULL
);
CREATE INDEX tasks_account ON tasks(account_id, id DESC);
CREATE INDEX tasks_request ON tasks(request_id);

-- Identity keys of records already kept in a dropDuplicates request (billing counts only new keys).
CREATE TABLE request_keys (
  request_id TEXT NOT NULL,
  key TEXT NOT NULL,
  PRIMARY KEY (request_id, key)
) WITHOUT ROWID;
