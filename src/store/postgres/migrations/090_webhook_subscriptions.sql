-- Webhook subscriptions (issue 36, POST /webhooks): an account's URL for events of the kinds in
-- `events`, written ',request.finished,monitor.changes,' so one strpos() finds an event. A delivery
-- made for one names its event and subscription; a request's own delivery has neither. Deliveries
-- are found by request for the purge, as a request now has one per subscription besides its own.
CREATE TABLE webhook_subscriptions (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  url text NOT NULL,
  events text NOT NULL,
  description text,
  created_at bigint NOT NULL
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions(account_id, created_at);
ALTER TABLE webhook_deliveries ADD COLUMN event text;
ALTER TABLE webhook_deliveries ADD COLUMN subscription_id text;
CREATE INDEX webhook_deliveries_request ON webhook_deliveries(request_id);
