-- The janitor purges webhook call-log rows past the history period by age (they were kept for good).
CREATE INDEX webhook_calls_time ON webhook_calls(created_at);
