-- What the worker processes share to behave like one polite client (src/fetch/cluster/postgres.ts,
-- issue 35), when the queue is PostgreSQL and there is no Redis. Times are ms since the epoch on the
-- server's clock. Unlogged: it is live coordination, worth nothing after a crash of the server.
CREATE UNLOGGED TABLE cluster_pace (key text PRIMARY KEY, next_at double precision NOT NULL, paused_until double precision NOT NULL DEFAULT 0);
CREATE SEQUENCE cluster_state_version;
CREATE UNLOGGED TABLE cluster_state (ns text NOT NULL, key text NOT NULL, value text NOT NULL, expires_at double precision NOT NULL, version bigint NOT NULL, PRIMARY KEY (ns, key));
CREATE INDEX cluster_state_by_version ON cluster_state (version);
CREATE UNLOGGED TABLE cluster_members (id text PRIMARY KEY, seen_until double precision NOT NULL);
