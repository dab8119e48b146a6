-- The business database served in index order (issue 13, as SQLite's 005_businesses_order.sql): pages
-- are keyset by id, and each equality filter has an index ending with id, so a page walks the index in
-- page order and stops after `limit` matches.
DROP INDEX businesses_by_place;
CREATE INDEX businesses_by_country ON businesses (country_code, id);
CREATE INDEX businesses_by_state ON businesses (state_k, id);
CREATE INDEX businesses_by_city ON businesses (city_k, id);
CREATE INDEX businesses_by_county ON businesses (county_k, id);
-- Names: a trigram index serves LIKE '%...%' when pg_trgm can be had. An extension lives in one schema
-- of the database; it is created in public (where every deployment schema can reach it by a qualified
-- name) and the index names its operator class wherever the extension is. A database where it cannot be
-- created still answers name searches, by reading the rows.
DO $$
DECLARE s text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
  EXCEPTION WHEN others THEN
    RAISE NOTICE 'pg_trgm not available (%): names are searched without an index', SQLERRM;
  END;
  SELECT n.nspname INTO s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF s IS NOT NULL THEN
    EXECUTE format('CREATE INDEX businesses_by_name ON businesses USING gin (name_k %I.gin_trgm_ops)', s);
  END IF;
END $$;
