-- desk.rule_changed: re-applied whenever this file changes (CREATE OR REPLACE keeps its owner and grants).
-- Records every change of the team rule in the audit trail (with who sends approved uploads).
CREATE OR REPLACE FUNCTION desk.rule_changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_at := now();
  INSERT INTO desk.audit (action, origin, details) VALUES ('team-rule', 'team-database', jsonb_build_object(
    'before', jsonb_build_object('approval', OLD.approval, 'thresholds', OLD.thresholds, 'sender', OLD.sender),
    'after', jsonb_build_object('approval', NEW.approval, 'thresholds', NEW.thresholds, 'sender', NEW.sender)));
  RETURN NEW;
END
$$;
