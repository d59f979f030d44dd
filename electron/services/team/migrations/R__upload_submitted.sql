-- desk.upload_submitted: re-applied whenever this file changes (CREATE OR REPLACE keeps its owner and grants).
-- Submission: the preparer is the login, the state is the rule's, nothing else is the client's say.
CREATE OR REPLACE FUNCTION desk.upload_submitted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  NEW.preparer := session_user;
  NEW.created_at := now();
  NEW.state := CASE WHEN desk.needs_approval(NEW.totals) THEN 'waiting' ELSE 'approved' END;
  NEW.sender := CASE WHEN NEW.state = 'waiting'
    THEN coalesce((SELECT r.sender FROM desk.team_rule r WHERE r.id), 'preparer') ELSE 'preparer' END;
  NEW.decided_by := NULL;
  NEW.decided_at := NULL;
  NEW.reason := NULL;
  NEW.sent_by := NULL;
  NEW.sent_at := NULL;
  NEW.sent_from := NULL;
  RETURN NEW;
END
$$;
