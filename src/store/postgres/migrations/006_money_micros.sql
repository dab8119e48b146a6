-- Money as integer micros, millionths of the currency unit (src/billing/money.ts), instead of double
-- precision: a sum of floats drifts (99.88799999999995). PostgreSQL dialect of SQLite's
-- 007_money_micros.sql: existing amounts rounded to the nearest micro, columns renamed *_micros.
ALTER TABLE accounts ALTER COLUMN balance DROP DEFAULT, ALTER COLUMN credit_limit DROP DEFAULT;
ALTER TABLE accounts ALTER COLUMN balance TYPE bigint USING round(balance * 1000000)::bigint,
                     ALTER COLUMN credit_limit TYPE bigint USING round(credit_limit * 1000000)::bigint;
ALTER TABLE accounts ALTER COLUMN balance SET DEFAULT 0, ALTER COLUMN credit_limit SET DEFAULT 0;
ALTER TABLE accounts RENAME COLUMN balance TO balance_micros;
ALTER TABLE accounts RENAME COLUMN credit_limit TO credit_limit_micros;

ALTER TABLE prices ALTER COLUMN unit_price TYPE bigint USING round(unit_price * 1000000)::bigint;
ALTER TABLE prices RENAME COLUMN unit_price TO unit_price_micros;

ALTER TABLE requests ALTER COLUMN unit_price TYPE bigint USING round(unit_price * 1000000)::bigint;
ALTER TABLE requests RENAME COLUMN unit_price TO unit_price_micros;

ALTER TABLE usage ALTER COLUMN unit_price TYPE bigint USING round(unit_price * 1000000)::bigint,
                  ALTER COLUMN amount TYPE bigint USING round(amount * 1000000)::bigint;
ALTER TABLE usage RENAME COLUMN unit_price TO unit_price_micros;
ALTER TABLE usage RENAME COLUMN amount TO amount_micros;
