-- Summary: audit trail
-- Version 2: the audit trail (issue 14). Columns and types that PostgreSQL has too (BIGINT, TEXT;
-- `details` becomes jsonb there), so the team database takes the same table; there the insert-only
-- rule is also the grants'.
-- Released: never edit it; a later file changes what it did.

-- Who did what, when, where: written once, never changed or removed (the triggers below).
CREATE TABLE audit (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  person TEXT NOT NULL,
  computer TEXT NOT NULL,
  environment TEXT NOT NULL,
  action TEXT NOT NULL,
  workspace_id TEXT,
  upload_id TEXT,
  donation_id TEXT,
  details TEXT NOT NULL
);
CREATE INDEX audit_at ON audit (at);
CREATE INDEX audit_workspace ON audit (workspace_id, seq) WHERE workspace_id IS NOT NULL;
CREATE INDEX audit_upload ON audit (upload_id, seq) WHERE upload_id IS NOT NULL;
CREATE INDEX audit_donation ON audit (donation_id, seq) WHERE donation_id IS NOT NULL;
CREATE INDEX audit_person ON audit (person, seq);
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN
  SELECT RAISE(ABORT, 'The audit trail is insert-only: its entries cannot be changed.');
END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN
  SELECT RAISE(ABORT, 'The audit trail is insert-only: its entries cannot be removed.');
END;
-- INSERT OR REPLACE removes the old row without firing DELETE triggers: refuse it up front.
CREATE TRIGGER audit_no_replace BEFORE INSERT ON audit
WHEN EXISTS (SELECT 1 FROM audit WHERE seq = NEW.seq)
BEGIN
  SELECT RAISE(ABORT, 'The audit trail is insert-only: its entries cannot be replaced.');
END;
