-- Summary: audit trail hash chain
-- Version 6: each audit entry carries a hash over its content and the previous entry's hash, so an
-- entry changed, removed or added from outside the app is found by `donation-desk audit verify`.
-- Released: never edit it; a later file changes what it did.

-- SHA-256 (hex) of the entry's canonical text and the previous entry's hash, written by the app in
-- the transaction that inserts the entry. NULL only for entries written before version 6, until
-- the app seals them (once, in order) the first time it opens this folder.
ALTER TABLE audit ADD COLUMN hash TEXT;

-- One row: where the chain ends as the app last wrote it (an entry removed from the end, or added
-- after it from outside the app, shows against it), and how far the entries written before version
-- 6 reach (0 once they are sealed).
CREATE TABLE audit_chain (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  last_seq INTEGER NOT NULL,
  last_hash TEXT,
  unsealed_through INTEGER NOT NULL
);
INSERT INTO audit_chain (one, last_seq, last_hash, unsealed_through)
SELECT 1, coalesce(max(seq), 0), NULL, coalesce(max(seq), 0) FROM audit;

-- Entries stay as written. The one change allowed is the one-time seal of an entry written before
-- version 6: its hash, from none to one, nothing else touched.
DROP TRIGGER audit_no_update;
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
WHEN NOT (
  OLD.hash IS NULL AND NEW.hash IS NOT NULL
  AND OLD.seq <= (SELECT unsealed_through FROM audit_chain WHERE one = 1)
  AND NEW.seq = OLD.seq AND NEW.at IS OLD.at AND NEW.person IS OLD.person
  AND NEW.computer IS OLD.computer AND NEW.environment IS OLD.environment
  AND NEW.action IS OLD.action AND NEW.workspace_id IS OLD.workspace_id
  AND NEW.upload_id IS OLD.upload_id AND NEW.donation_id IS OLD.donation_id
  AND NEW.details IS OLD.details
)
BEGIN
  SELECT RAISE(ABORT, 'The audit trail is insert-only: its entries cannot be changed.');
END;
