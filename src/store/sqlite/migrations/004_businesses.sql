-- The business database (issue 13, interface 4.8). One row per (owner, os_id): owner is the account
-- whose request found the place, or '' for open data shared by every account (OSM imports).
-- The *_k columns are search keys normalised in JS (src/store/businesses/row.ts), so both stores
-- compare the same bytes whatever their collation or case folding.
CREATE TABLE businesses (
  id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  os_id TEXT NOT NULL,
  record TEXT NOT NULL,
  name_k TEXT NOT NULL,
  country_code TEXT,
  state_k TEXT,
  city_k TEXT,
  county_k TEXT,
  postal_k TEXT,
  latitude REAL,
  longitude REAL,
  rating REAL,
  reviews INTEGER,
  has_site INTEGER NOT NULL,
  has_phone INTEGER NOT NULL,
  phone_k TEXT,
  domain TEXT,
  business_status TEXT,
  verified INTEGER,
  area_service INTEGER,
  added INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  UNIQUE (owner, os_id)
);
CREATE INDEX businesses_by_os_id ON businesses (os_id, owner);
CREATE INDEX businesses_by_place ON businesses (country_code, state_k, city_k);
CREATE INDEX businesses_by_rating ON businesses (country_code, rating);
CREATE INDEX businesses_by_domain ON businesses (domain);
CREATE INDEX businesses_by_updated ON businesses (updated);
CREATE TABLE business_types (
  business INTEGER NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  type_k TEXT NOT NULL,
  PRIMARY KEY (type_k, business)
) WITHOUT ROWID;
CREATE INDEX business_types_by_business ON business_types (business);
-- Substring search on names: the trigram tokenizer serves LIKE '%...%' from the index.
CREATE VIRTUAL TABLE businesses_fts USING fts5 (name_k, tokenize = 'trigram');
-- Geo: a point per business (min = max), searched by bounding box.
CREATE VIRTUAL TABLE businesses_geo USING rtree (id, min_lat, max_lat, min_lng, max_lng);
