-- The business database kept one index too many (issue 13): (os_id, owner) beside the unique
-- (owner, os_id). A search by os_id states the owners it may see (the account's and open data's), so
-- the unique index serves it; every upsert and search already used that one.
DROP INDEX businesses_by_os_id;
