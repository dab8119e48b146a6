-- Filters of interface 4.8 beyond the first ones (issue 13): the keys are computed in JS
-- (src/store/businesses/row.ts), as every other search key, so both stores compare the same bytes.
-- attributes_k: the record's attributes, lower-cased, as `|a|b|` (a LIKE '%|a|%' per asked attribute).
-- located_k: the os_id of the place the business is located in (a mall, an airport), from the scraped
-- `located_engine_id`. Rows stored before this migration get both on their next upsert.
ALTER TABLE businesses ADD COLUMN attributes_k TEXT;
ALTER TABLE businesses ADD COLUMN located_k TEXT;
CREATE INDEX businesses_by_located ON businesses (located_k);
