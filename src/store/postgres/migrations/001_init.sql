-- PostgreSQL dialect of src/store/sqlite/migrations/001_init.sql: same tables, columns and meaning.
-- Times are Unix milliseconds (bigint); money is double precision like SQLite's REAL, so both stores
-- round the same way. JSON the store hands back as text stays text; JSON it parses is `json` (kept
-- byte for byte, key order included); tags are `jsonb` so a tag lookup can use containment.

-- Accounts, keys and prices.
CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  balance double precision NOT NULL DEFAULT 0,
  credit_limit double precision NOT NULL DEFAULT 0,
  currency text NOT NULL DEFAULT 'usd',
  past_due boolean NOT NULL DEFAULT false,
  webhook_secret text NOT NULL,
  webhook_url text,
  rate_per_sec double precision NOT NULL DEFAULT 20,
  burst integer NOT NULL DEFAULT 40,
  created_at bigint NOT NULL
);
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX api_keys_account ON api_keys(account_id);
-- account_id '' is the default price of a product.
CREATE TABLE prices (
  account_id text NOT NULL DEFAULT '',
  product text NOT NULL,
  unit_price double precision NOT NULL,
  PRIMARY KEY (account_id, product)
);

-- Requests, their work items and results.
CREATE TABLE requests (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  endpoint text NOT NULL,
  params json NOT NULL,
  status text NOT NULL DEFAULT 'Pending',
  queries_total integer NOT NULL,
  queries_done integer NOT NULL DEFAULT 0,
  queries_ok integer NOT NULL DEFAULT 0,
  records bigint NOT NULL DEFAULT 0,
  usage bigint NOT NULL DEFAULT 0,
  webhook text,
  product text NOT NULL,
  unit text NOT NULL,
  unit_price double precision NOT NULL,
  empty_costs_one boolean NOT NULL,
  drop_duplicates boolean NOT NULL,
  cancelled boolean NOT NULL DEFAULT false,
  task_id text,
  created_at bigint NOT NULL,
  finished_at bigint
);
CREATE INDEX requests_account_created ON requests(account_id, created_at DESC);
CREATE INDEX requests_finished ON requests(finished_at);

CREATE TABLE work_items (
  id text PRIMARY KEY,
  request_id text NOT NULL REFERENCES requests(id),
  query_index integer NOT NULL,
  query text NOT NULL,
  state text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  lease_owner text,
  lease_until bigint,
  run_after bigint NOT NULL,
  error text
);
-- Partial indexes: finished items stay in the table for hours, claims only look at the live ones.
CREATE INDEX work_items_queued ON work_items(run_after) WHERE state = 'queued';
CREATE INDEX work_items_leased ON work_items(lease_until) WHERE state = 'leased';
CREATE INDEX work_items_request ON work_items(request_id);

CREATE TABLE results (
  request_id text NOT NULL,
  query_index integer NOT NULL,
  records text NOT NULL,
  count integer NOT NULL,
  error text,
  PRIMARY KEY (request_id, query_index)
);

-- Usage ledger: one line per billed work item (or per request when billed at its end).
CREATE TABLE usage (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id text NOT NULL,
  request_id text NOT NULL,
  item_key text NOT NULL UNIQUE,
  product text NOT NULL,
  unit text NOT NULL,
  quantity bigint NOT NULL,
  unit_price double precision NOT NULL,
  amount double precision NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX usage_account_time ON usage(account_id, created_at);

-- Webhooks.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  request_id text NOT NULL,
  url text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_at bigint,
  state text NOT NULL DEFAULT 'pending',
  lease_until bigint
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 'pending';
CREATE TABLE webhook_calls (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id text NOT NULL,
  delivery_id text NOT NULL,
  status_code integer NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX webhook_calls_account ON webhook_calls(account_id, created_at DESC);

-- UI tasks.
CREATE TABLE tasks (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  request_id text,
  service_name text NOT NULL,
  queries json NOT NULL,
  tags jsonb NOT NULL,
  spec json NOT NULL,
  status text NOT NULL,
  format text NOT NULL,
  file_token text UNIQUE,
  file_path text,
  results json NOT NULL,
  created bigint NOT NULL,
  updated bigint NOT NULL,
  queue_task_id text NOT NULL
);
CREATE INDEX tasks_account ON tasks(account_id, id DESC);
CREATE INDEX tasks_request ON tasks(request_id);

-- Identity keys of records already kept in a dropDuplicates request (billing counts only new keys).
CREATE TABLE request_keys (
  request_id text NOT NULL,
  key text NOT NULL,
  PRIMARY KEY (request_id, key)
);
