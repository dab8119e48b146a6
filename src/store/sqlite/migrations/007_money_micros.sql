-- Money as integer micros, millionths of the currency unit (src/billing/money.ts), instead of REAL:
-- a sum of floats drifts (99.88799999999995). Existing amounts are rounded to the nearest micro,
-- which is exact for every amount of at most 6 decimals (all prices the CLI accepted in practice).
-- The columns are renamed *_micros so no reader can take the new integers for the old unit.
ALTER TABLE accounts ADD COLUMN balance_micros INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN credit_limit_micros INTEGER NOT NULL DEFAULT 0;
UPDATE accounts SET balance_micros = CAST(ROUND(balance * 1000000) AS INTEGER),
                    credit_limit_micros = CAST(ROUND(credit_limit * 1000000) AS INTEGER);
ALTER TABLE accounts DROP COLUMN balance;
ALTER TABLE accounts DROP COLUMN credit_limit;

ALTER TABLE prices ADD COLUMN unit_price_micros INTEGER NOT NULL DEFAULT 0;
UPDATE prices SET unit_price_micros = CAST(ROUND(unit_price * 1000000) AS INTEGER);
ALTER TABLE prices DROP COLUMN unit_price;

ALTER TABLE requests ADD COLUMN unit_price_micros INTEGER NOT NULL DEFAULT 0;
UPDATE requests SET unit_price_micros = CAST(ROUND(unit_price * 1000000) AS INTEGER);
ALTER TABLE requests DROP COLUMN unit_price;

-- A ledger line keeps the amount it recorded (quantity x price, rounded once, here).
ALTER TABLE usage ADD COLUMN unit_price_micros INTEGER NOT NULL DEFAULT 0;
ALTER TABLE usage ADD COLUMN amount_micros INTEGER NOT NULL DEFAULT 0;
UPDATE usage SET unit_price_micros = CAST(ROUND(unit_price * 1000000) AS INTEGER), amount_micros = CAST(ROUND(amount * 1000000) AS INTEGER);
ALTER TABLE usage DROP COLUMN unit_price;
ALTER TABLE usage DROP COLUMN amount;
