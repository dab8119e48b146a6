-- The business database narrowed (issue 13), as SQLite's 005_businesses_order.sql did: the record text
-- (about two thirds of a row) moves to its own table, read only for the ids of a page, so the rows a
-- filter, a count or a geo search walks are narrow (three times as many to a page).
-- A million rows take longer than the store's statement limit on a loaded machine.
SET LOCAL statement_timeout = 0;
CREATE TABLE business_records (
  id bigint PRIMARY KEY,
  record text NOT NULL
);
INSERT INTO business_records (id, record) SELECT id, record FROM businesses;
ALTER TABLE businesses DROP COLUMN record;
-- The flags as smallint: a type change rewrites the table, which is what frees the dropped column's
-- bytes in every row (DROP COLUMN alone leaves them until each row is next updated).
ALTER TABLE businesses ALTER COLUMN has_site TYPE smallint, ALTER COLUMN has_phone TYPE smallint,
  ALTER COLUMN verified TYPE smallint, ALTER COLUMN area_service TYPE smallint;
-- Geo: the point index also returns the id and the coordinates, so a geo page collects its candidates'
-- ids from the index alone (an index-only scan) and reads rows only for those it shows.
DROP INDEX businesses_geo;
CREATE INDEX businesses_geo ON businesses USING gist (point(longitude, latitude)) INCLUDE (id, latitude, longitude);
