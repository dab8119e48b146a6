-- Stored records compressed with lz4 rather than pglz (issue 37). A map search's records are about
-- 50 KB of JSON, which PostgreSQL compresses when it moves them out of line: with pglz that took
-- 0.5-0.9 ms of the server's CPU per completion (1.4-1.7 ms a completion with it, 1.0-1.1 ms with lz4,
-- at load 13-16 on 2 cores), for about the same stored size (11.9 KB against 11.5 KB of 50 KB). Rows already
-- stored stay as they are (each value says its own method); reads decompress either.
-- PostgreSQL 14 or later built with lz4 (the usual packages) has it; a server without it keeps pglz.
DO $$
BEGIN
  -- As text, so that a server before 14 (no SET COMPRESSION) fails here, where it is caught.
  EXECUTE 'ALTER TABLE results ALTER COLUMN records SET COMPRESSION lz4';
  EXECUTE 'ALTER TABLE result_chunks ALTER COLUMN records SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN
  RAISE NOTICE 'lz4 compression not available: stored records stay pglz (%)', SQLERRM;
END $$;
