-- desk.upload_guarded: re-applied whenever this file changes (CREATE OR REPLACE keeps its owner and grants).
-- Even the functions (and the owner) keep what was submitted, and only move the state forward
-- (or from sent to void, when desk.unmark_sent records that nothing reached the service).
CREATE OR REPLACE FUNCTION desk.upload_guarded() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD008', MESSAGE = 'Submitted uploads stay on record: they cannot be removed.';
  END IF;
  IF (NEW.id, NEW.workspace_name, NEW.environment, NEW.environment_key, NEW.computer, NEW.file_sha256,
      NEW.rows, NEW.totals, NEW.review, NEW.preparer, NEW.created_at, NEW.sender)
     IS DISTINCT FROM (OLD.id, OLD.workspace_name, OLD.environment, OLD.environment_key, OLD.computer,
      OLD.file_sha256, OLD.rows, OLD.totals, OLD.review, OLD.preparer, OLD.created_at, OLD.sender) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009', MESSAGE = 'What was submitted for approval cannot be changed; submit the upload again.';
  END IF;
  IF NEW.state IS DISTINCT FROM OLD.state AND NOT (
       (OLD.state = 'waiting' AND NEW.state IN ('approved', 'rejected', 'void'))
    OR (OLD.state = 'approved' AND NEW.state IN ('void', 'sent'))
    -- desk.unmark_sent: nothing reached the service.
    OR (OLD.state = 'sent' AND NEW.state = 'void')) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('An upload that is %s cannot become %s.', OLD.state, NEW.state);
  END IF;
  RETURN NEW;
END
$$;
