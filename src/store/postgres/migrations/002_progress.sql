-- PostgreSQL dialect of src/store/sqlite/migrations/003_progress.sql (durable paged queries).
CREATE TABLE item_progress (
  request_id text NOT NULL,
  query_index integer NOT NULL,
  state text NOT NULL,
  chunks integer NOT NULL DEFAULT 0,
  records bigint NOT NULL DEFAULT 0,
  updated_at bigint NOT NULL,
  PRIMARY KEY (request_id, query_index)
);
CREATE TABLE result_chunks (
  request_id text NOT NULL,
  query_index integer NOT NULL,
  chunk integer NOT NULL,
  records text NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (request_id, query_index, chunk)
);
ALTER TABLE results ADD COLUMN chunks integer NOT NULL DEFAULT 0;
CREATE TABLE secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at bigint NOT NULL
);
