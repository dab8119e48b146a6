-- Filters of interface 4.8 beyond the first ones (issue 13), as SQLite's 006_business_filters.sql.
ALTER TABLE businesses ADD COLUMN attributes_k text COLLATE "C";
ALTER TABLE businesses ADD COLUMN located_k text COLLATE "C";
CREATE INDEX businesses_by_located ON businesses (located_k, id);
