-- The business database served in index order (issue 13): pages are keyset by the row id, and every
-- index an equality filter uses ends (implicitly, in SQLite) with that id, so a page walks the index in
-- page order and stops after `limit` matches instead of sorting every match.
-- The record JSON moves to its own table: the rows a filter walks stay narrow (more per page read).
CREATE TABLE business_records (
  id INTEGER PRIMARY KEY,
  record TEXT NOT NULL
);
INSERT INTO business_records (id, record) SELECT id, record FROM businesses;
ALTER TABLE businesses DROP COLUMN record;
DROP INDEX businesses_by_place;
CREATE INDEX businesses_by_country ON businesses (country_code);
CREATE INDEX businesses_by_state ON businesses (state_k);
CREATE INDEX businesses_by_city ON businesses (city_k);
CREATE INDEX businesses_by_county ON businesses (county_k);
-- Names: the trigram index reads its text from businesses.name_k (external content) instead of keeping
-- a second copy, and keeps no positions (LIKE rechecks the text).
DROP TABLE businesses_fts;
CREATE VIRTUAL TABLE businesses_fts USING fts5 (name_k, content = 'businesses', content_rowid = 'id', tokenize = 'trigram', detail = 'none', columnsize = 0);
INSERT INTO businesses_fts (businesses_fts) VALUES ('rebuild');
