-- A task's bounded listing summary (src/store/tasks/summary.ts), written when it is created: GET /tasks
-- reads it instead of the whole body and the expanded queries, which stay TOASTed (issue 28). Older rows
-- have none and are summarised from their body when listed. Numbered apart from the sequence the other parts grow by.
ALTER TABLE tasks ADD COLUMN summary json;
