-- Why the service paused a monitor (issue 39): its account could not pay a run. Null while active, or
-- when the user paused it; cleared when the user sets the status again (docs/monitors.md).
ALTER TABLE monitors ADD COLUMN paused_reason TEXT;
