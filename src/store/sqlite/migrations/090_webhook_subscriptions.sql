-- Webhook subscriptions (issue 36, POST /webhooks): an account's URL for events of the kinds in
-- `events`, written ',request.finished,monitor.changes,' so one instr() finds an event. A delivery
-- made for one names its event and subscription; a request's own delivery has neither. Deliveries
-- are found by request for the purge, as a request now has one per subscription besides its own.
CREATE TABLE webhook_subscriptions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions(account_id, created_at);
ALTER TABLE webhook_deliveries ADD COLUMN event TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN subscription_id TEXT;
CREATE INDEX webhook_deliveries_request ON webhook_deliveries(request_id);
