-- desk.audit_stamp: re-applied whenever this file changes (CREATE OR REPLACE keeps its owner and grants).
-- Not SECURITY DEFINER: current_user here is the inserting side, the schema's owner only when the
-- desk's own functions write, so only they may write the database's entries: those of origin
-- team-database, and the actions that record its decisions (whatever origin a client names). A
-- computer writes under its own origin, with its own numbers; desk.audit_sealed (which runs next)
-- binds that origin to the login and seals the entry with the server's time and order.
CREATE OR REPLACE FUNCTION desk.audit_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_desk boolean := EXISTS (SELECT 1 FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
    WHERE n.nspname = 'desk' AND r.rolname = current_user);
BEGIN
  IF NOT v_desk THEN
    IF NEW.origin = 'team-database' THEN
      RAISE EXCEPTION USING ERRCODE = 'DD009',
        MESSAGE = 'Entries of origin team-database are written by the team database itself.';
    END IF;
    IF NEW.action IN ('submit', 'approve', 'reject', 'void', 'send', 'not-sent', 'release-rows',
        'team-rule', 'correction-claim', 'correction-done', 'correction-abandon') THEN
      RAISE EXCEPTION USING ERRCODE = 'DD012',
        MESSAGE = format('An entry "%s" records a decision of the team database: only the database writes it.', NEW.action);
    END IF;
    IF btrim(coalesce(NEW.origin, '')) = '' OR NEW.origin_seq IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'DD012',
        MESSAGE = 'An entry from a computer names its origin (its data folder) and its number there.';
    END IF;
    -- What the computer said the time was, kept beside the server's.
    NEW.reported_at := NEW.at;
  ELSE
    NEW.reported_at := NULL;
  END IF;
  NEW.person := session_user;
  NEW.recorded_at := now();
  RETURN NEW;
END
$$;
