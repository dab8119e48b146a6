-- Whether a work item has a checkpoint, for the claim's RETURNING (issue 37: the claim answers it, so
-- a first run does not read item_progress in a round trip of its own). PL/pgSQL, VOLATILE: it is never
-- inlined and its query takes a fresh snapshot, after the claim locked the item, so a step saved by a
-- worker whose lease ran out, committed after the claim's statement began, is seen. PostgreSQL only:
-- SQLite's claim reads nothing it could miss (one writer at a time) and leaves the runner to read it.
CREATE OR REPLACE FUNCTION item_checkpointed(req text, idx int) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM item_progress WHERE request_id = req AND query_index = idx);
END $$;
