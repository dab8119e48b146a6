-- The business database (issue 13, interface 4.8); the same shape as SQLite's 004_businesses.sql.
-- Keys compare as bytes (COLLATE "C") so ordering and equality match SQLite's BINARY collation.
CREATE TABLE businesses (
  id bigserial PRIMARY KEY,
  owner text COLLATE "C" NOT NULL,
  os_id text COLLATE "C" NOT NULL,
  record text NOT NULL,
  name_k text COLLATE "C" NOT NULL,
  country_code text COLLATE "C",
  state_k text COLLATE "C",
  city_k text COLLATE "C",
  county_k text COLLATE "C",
  postal_k text COLLATE "C",
  latitude double precision,
  longitude double precision,
  rating double precision,
  reviews bigint,
  has_site integer NOT NULL,
  has_phone integer NOT NULL,
  phone_k text COLLATE "C",
  domain text COLLATE "C",
  business_status text COLLATE "C",
  verified integer,
  area_service integer,
  added bigint NOT NULL,
  updated bigint NOT NULL,
  UNIQUE (owner, os_id)
);
CREATE INDEX businesses_by_os_id ON businesses (os_id, owner);
CREATE INDEX businesses_by_place ON businesses (country_code, state_k, city_k);
CREATE INDEX businesses_by_rating ON businesses (country_code, rating);
CREATE INDEX businesses_by_domain ON businesses (domain);
CREATE INDEX businesses_by_updated ON businesses (updated);
-- Geo: a built-in GiST index on the point, searched by bounding box (no extension needed).
CREATE INDEX businesses_geo ON businesses USING gist (point(longitude, latitude));
CREATE TABLE business_types (
  business bigint NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  type_k text COLLATE "C" NOT NULL,
  PRIMARY KEY (type_k, business)
);
CREATE INDEX business_types_by_business ON business_types (business);
-- Great-circle distance in metres (haversine, mean Earth radius); SQLite registers the same formula
-- as a JS function, so a circle selects the same rows on both stores.
CREATE FUNCTION distance_m(lat1 double precision, lng1 double precision, lat2 double precision, lng2 double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
  SELECT 2 * 6371008.8 * asin(sqrt(power(sin(radians(lat2 - lat1) / 2), 2)
    + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2)))
$$;
