-- Summary: the data folder id and the team audit outbox
-- Version 4: team mode's outbox for the audit trail.
-- Released: never edit it; a later file changes what it did.

-- A stable id of this data folder, made once: the origin of its entries in a team's trail.
CREATE TABLE folder_identity (id TEXT NOT NULL PRIMARY KEY);
INSERT INTO folder_identity (id) VALUES (lower(hex(randomblob(16))));
-- Per team database (host:port/database), the last local audit seq copied to its trail. The
-- audit table itself stays insert-only: what has been pushed is remembered here instead.
CREATE TABLE team_outbox (server TEXT NOT NULL PRIMARY KEY, pushed_seq INTEGER NOT NULL);
