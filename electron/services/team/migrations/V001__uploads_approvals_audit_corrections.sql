-- Summary: roles, team rule, uploads and approvals, shared duplicate guard, audit trail, follow leases, corrections
-- Version 1 of the team database, exactly as Donation Desk made it before its schema moved to
-- these files: one schema `desk`, three group roles, the tables, and the rules that a modified
-- client cannot skip (grants, triggers, and SECURITY DEFINER functions that are the only way an
-- upload changes state). Released: never edit it; a later file changes what it did.
--
-- Identity is `session_user`, the login that connected: inside a SECURITY DEFINER function
-- `current_user` is the function's owner, and `SET ROLE` changes `current_user` but not who logged in.
--
-- Refusals are raised with SQLSTATEs of class DD (unused by PostgreSQL), mapped by teamErrors.ts:
--   DD001 the preparer may not decide their own upload     DD002 the caller lacks the role
--   DD003 a different file (SHA-256) than the one submitted DD004 no such upload
--   DD005 the upload is not in a state that allows it       DD006 a reason is required
--   DD007 not the preparer (or an admin / approver)         DD008 insert-only table
--   DD009 a value or a change the desk does not accept     DD010 a correction is held by another person
--   DD011 the upload was already sent by another login or computer

-- ── Roles (cluster-wide in PostgreSQL: made once, kept if another desk database made them) ──
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'desk_preparer') THEN
    CREATE ROLE desk_preparer NOLOGIN;
  END IF;
END
$$;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'desk_approver') THEN
    CREATE ROLE desk_approver NOLOGIN;
  END IF;
END
$$;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'desk_admin') THEN
    CREATE ROLE desk_admin NOLOGIN;
  END IF;
END
$$;

-- An approver may also prepare; an admin holds both and may grant them (and preparer) to logins.
GRANT desk_preparer TO desk_approver;
GRANT desk_preparer TO desk_admin WITH ADMIN OPTION;
GRANT desk_approver TO desk_admin WITH ADMIN OPTION;

-- Only the desk's people may connect to this database.
DO $$
BEGIN
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO desk_preparer', current_database());
END
$$;

-- ── Schema and version ──
CREATE SCHEMA desk;
REVOKE ALL ON SCHEMA desk FROM PUBLIC;
GRANT USAGE ON SCHEMA desk TO desk_preparer;
CREATE TABLE desk.schema_version (
  version integer PRIMARY KEY,
  summary text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  applied_by text NOT NULL DEFAULT session_user
);

-- ── Shared functions ──
CREATE FUNCTION desk.refuse_change() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'DD008',
    MESSAGE = format('%s is insert-only: its entries cannot be changed or removed.',
      CASE TG_TABLE_NAME WHEN 'audit' THEN 'The audit trail'
        WHEN 'approval_event' THEN 'The approval history' ELSE TG_TABLE_NAME END);
END
$$;
CREATE FUNCTION desk.valid_thresholds(t jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT jsonb_typeof(t) = 'object' AND coalesce((
    SELECT bool_and(key ~ '^[A-Z]{3}$' AND jsonb_typeof(value) = 'number'
      AND value::text::numeric >= 0 AND value::text::numeric = trunc(value::text::numeric))
    FROM jsonb_each(t)), true)
$$;
CREATE FUNCTION desk.valid_totals(t jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT jsonb_typeof(t) = 'array' AND coalesce((
    SELECT bool_and(jsonb_typeof(e) = 'object'
      AND jsonb_typeof(e->'currencyCode') = 'string' AND (e->>'currencyCode') ~ '^[A-Z]{3}$'
      AND jsonb_typeof(e->'amount') = 'number' AND (e->>'amount')::numeric = trunc((e->>'amount')::numeric)
      AND jsonb_typeof(e->'count') = 'number' AND (e->>'count')::numeric >= 0)
    FROM jsonb_array_elements(t) e), true)
$$;

-- ── The team's rule: one row, changed by desk_admin only ──
CREATE TABLE desk.team_rule (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  approval text NOT NULL DEFAULT 'always' CHECK (approval IN ('always', 'above', 'never')),
  thresholds jsonb NOT NULL DEFAULT '{}' CHECK (desk.valid_thresholds(thresholds)),
  changed_by text NOT NULL DEFAULT session_user,
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO desk.team_rule (id) VALUES (true);

-- ── Uploads submitted to the team ──
CREATE TABLE desk.upload (
  id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 200),
  workspace_name text NOT NULL,
  environment text NOT NULL,
  environment_key text NOT NULL,
  computer text NOT NULL,
  file_sha256 text NOT NULL CHECK (file_sha256 ~ '^[0-9a-f]{64}$'),
  rows integer NOT NULL CHECK (rows >= 0),
  totals jsonb NOT NULL CHECK (desk.valid_totals(totals)),
  review jsonb NOT NULL CHECK (jsonb_typeof(review) = 'object'),
  preparer text NOT NULL DEFAULT session_user,
  state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'approved', 'rejected', 'void', 'sent')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_by text,
  decided_at timestamptz,
  reason text,
  sent_by text,
  sent_at timestamptz
);
CREATE INDEX upload_state ON desk.upload (state, created_at DESC);
CREATE INDEX upload_month ON desk.upload (environment, (review->>'month')) WHERE state = 'sent';

-- ── The approval history: every submission, decision, void and send ──
CREATE TABLE desk.approval_event (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  upload_id text NOT NULL REFERENCES desk.upload (id),
  action text NOT NULL,
  actor text NOT NULL DEFAULT session_user,
  at timestamptz NOT NULL DEFAULT now(),
  computer text NOT NULL DEFAULT '',
  file_sha256 text,
  state_before text,
  state_after text NOT NULL,
  reason text
);
CREATE INDEX approval_event_upload ON desk.approval_event (upload_id, seq);
CREATE TRIGGER approval_event_no_change BEFORE UPDATE OR DELETE ON desk.approval_event
  FOR EACH ROW EXECUTE FUNCTION desk.refuse_change();
CREATE TRIGGER approval_event_no_truncate BEFORE TRUNCATE ON desk.approval_event
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- ── The shared duplicate guard: a row is out while the upload that claimed it is not released ──
CREATE TABLE desk.sent_row (
  environment_key text NOT NULL,
  fingerprint text NOT NULL,
  upload_id text NOT NULL,
  computer text NOT NULL DEFAULT '',
  claimed_by text NOT NULL DEFAULT session_user,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  released_at timestamptz,
  again boolean NOT NULL DEFAULT false,
  PRIMARY KEY (upload_id, environment_key, fingerprint)
);
CREATE INDEX sent_row_live ON desk.sent_row (environment_key, fingerprint) WHERE released_at IS NULL;

-- The last line of defence under claim_rows' lock: one live first claim per row.
CREATE UNIQUE INDEX sent_row_one_live ON desk.sent_row (environment_key, fingerprint)
  WHERE released_at IS NULL AND NOT again;

-- ── The audit trail: insert-only for everyone, the person is the login ──
CREATE TABLE desk.audit (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  recorded_at timestamptz NOT NULL DEFAULT now(),
  person text NOT NULL DEFAULT session_user,
  computer text NOT NULL DEFAULT '',
  environment text NOT NULL DEFAULT '',
  action text NOT NULL,
  workspace_id text,
  upload_id text,
  donation_id text,
  details jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(details) = 'object'),
  origin text NOT NULL DEFAULT '',
  origin_seq bigint,
  UNIQUE (origin, origin_seq)
);
CREATE INDEX audit_at ON desk.audit (at);
CREATE INDEX audit_workspace ON desk.audit (workspace_id, seq) WHERE workspace_id IS NOT NULL;
CREATE INDEX audit_upload ON desk.audit (upload_id, seq) WHERE upload_id IS NOT NULL;
CREATE INDEX audit_donation ON desk.audit (donation_id, seq) WHERE donation_id IS NOT NULL;
CREATE INDEX audit_person ON desk.audit (person, seq);

-- Not SECURITY DEFINER: current_user here is the inserting side, the schema's owner only when
-- the desk's own functions write, so only they may sign an entry as the database's.
CREATE FUNCTION desk.audit_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.origin = 'team-database' AND NOT EXISTS (SELECT 1 FROM pg_namespace n
      JOIN pg_roles r ON r.oid = n.nspowner WHERE n.nspname = 'desk' AND r.rolname = current_user) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009',
      MESSAGE = 'Entries of origin team-database are written by the team database itself.';
  END IF;
  NEW.person := session_user;
  NEW.recorded_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER audit_stamp BEFORE INSERT ON desk.audit
  FOR EACH ROW EXECUTE FUNCTION desk.audit_stamp();
CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON desk.audit
  FOR EACH ROW EXECUTE FUNCTION desk.refuse_change();
CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON desk.audit
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- ── Follow leases: one computer follows an upload at a time ──
CREATE TABLE desk.follow_lease (
  key text PRIMARY KEY,
  holder text NOT NULL,
  computer text NOT NULL DEFAULT '',
  login text NOT NULL DEFAULT session_user,
  until timestamptz NOT NULL
);

-- ── Corrections of declined donations: one person at a time replaces a declined donation ──
CREATE TABLE desk.correction (
  environment_key text NOT NULL,
  donation_id text NOT NULL CHECK (length(donation_id) BETWEEN 1 AND 200),
  claimed_by text NOT NULL DEFAULT session_user,
  computer text NOT NULL DEFAULT '',
  claimed_at timestamptz NOT NULL DEFAULT now(),
  how text NOT NULL CHECK (how IN ('single', 'upload')),
  upload_id text,
  replacement_id text,
  state text NOT NULL DEFAULT 'in-progress' CHECK (state IN ('in-progress', 'done', 'abandoned')),
  PRIMARY KEY (environment_key, donation_id),
  CHECK ((how = 'upload') = (upload_id IS NOT NULL)),
  CHECK ((state = 'done') = (replacement_id IS NOT NULL))
);
CREATE INDEX correction_upload ON desk.correction (upload_id) WHERE upload_id IS NOT NULL;

-- Whoever writes a claim, it is the login's: even the desk's own functions cannot sign for another.
CREATE FUNCTION desk.correction_stamped() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.claimed_by := session_user;
    NEW.claimed_at := now();
  ELSIF NEW.state = 'in-progress' AND OLD.state = 'abandoned' THEN
    NEW.claimed_by := session_user;
    NEW.claimed_at := now();
  ELSE
    NEW.claimed_by := OLD.claimed_by;
    NEW.claimed_at := OLD.claimed_at;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER correction_stamped BEFORE INSERT OR UPDATE ON desk.correction
  FOR EACH ROW EXECUTE FUNCTION desk.correction_stamped();
CREATE FUNCTION desk.record_correction(c desk.correction, p_action text, p_computer text)
  RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO desk.audit (computer, environment, action, upload_id, donation_id, origin, details)
  VALUES (coalesce(p_computer, ''), split_part(c.environment_key, '|', 1), p_action, c.upload_id,
    c.donation_id, 'team-database', jsonb_strip_nulls(jsonb_build_object(
      'environmentKey', c.environment_key, 'claimedBy', c.claimed_by, 'how', c.how,
      'state', c.state, 'replacementId', c.replacement_id)));
END
$$;

-- Gives every open claim of an upload back when the upload will not go (voided or rejected).
-- (p_by: only that login's, for an upload that was never submitted.)
CREATE FUNCTION desk.abandon_upload_corrections(p_upload text, p_computer text, p_by text DEFAULT NULL)
  RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c desk.correction;
BEGIN
  FOR c IN UPDATE desk.correction SET state = 'abandoned'
    WHERE upload_id = p_upload AND how = 'upload' AND state = 'in-progress'
      AND (p_by IS NULL OR claimed_by = p_by) RETURNING * LOOP
    PERFORM desk.record_correction(c, 'correction-abandon', p_computer);
  END LOOP;
END
$$;

-- ── The rule in force, applied by the database at submission ──
CREATE FUNCTION desk.needs_approval(p_totals jsonb) RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp STABLE AS $$
DECLARE
  r desk.team_rule;
BEGIN
  SELECT * INTO r FROM desk.team_rule WHERE id;
  IF NOT FOUND OR r.approval = 'always' THEN RETURN true; END IF;
  IF r.approval = 'never' THEN RETURN false; END IF;
  -- 'above': a currency without a threshold of its own always asks.
  RETURN EXISTS (
    SELECT 1 FROM jsonb_array_elements(coalesce(p_totals, '[]')) t
    WHERE NOT (r.thresholds ? (t->>'currencyCode'))
       OR (t->>'amount')::numeric > (r.thresholds->>(t->>'currencyCode'))::numeric);
END
$$;
CREATE FUNCTION desk.record(p_upload desk.upload, p_action text, p_from text, p_reason text,
  p_computer text, p_details jsonb) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO desk.approval_event (upload_id, action, computer, file_sha256, state_before, state_after, reason)
  VALUES (p_upload.id, p_action, coalesce(p_computer, ''), p_upload.file_sha256, p_from, p_upload.state, p_reason);
  INSERT INTO desk.audit (computer, environment, action, upload_id, origin, details)
  VALUES (coalesce(p_computer, ''), p_upload.environment, p_action, p_upload.id, 'team-database',
    jsonb_strip_nulls(jsonb_build_object(
      'workspaceName', p_upload.workspace_name, 'fileSha256', p_upload.file_sha256,
      'rows', p_upload.rows, 'totals', p_upload.totals, 'preparer', p_upload.preparer,
      'stateBefore', p_from, 'state', p_upload.state, 'reason', p_reason)) || coalesce(p_details, '{}'));
END
$$;

-- Submission: the preparer is the login, the state is the rule's, nothing else is the client's say.
CREATE FUNCTION desk.upload_submitted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  NEW.preparer := session_user;
  NEW.created_at := now();
  NEW.state := CASE WHEN desk.needs_approval(NEW.totals) THEN 'waiting' ELSE 'approved' END;
  NEW.decided_by := NULL;
  NEW.decided_at := NULL;
  NEW.reason := NULL;
  NEW.sent_by := NULL;
  NEW.sent_at := NULL;
  RETURN NEW;
END
$$;
CREATE TRIGGER upload_submitted BEFORE INSERT ON desk.upload
  FOR EACH ROW EXECUTE FUNCTION desk.upload_submitted();
CREATE FUNCTION desk.upload_recorded() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM desk.record(NEW, 'submit', NULL, NULL, NEW.computer, NULL);
  RETURN NULL;
END
$$;
CREATE TRIGGER upload_recorded AFTER INSERT ON desk.upload
  FOR EACH ROW EXECUTE FUNCTION desk.upload_recorded();

-- Even the functions (and the owner) keep what was submitted, and only move the state forward.
CREATE FUNCTION desk.upload_guarded() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD008', MESSAGE = 'Submitted uploads stay on record: they cannot be removed.';
  END IF;
  IF (NEW.id, NEW.workspace_name, NEW.environment, NEW.environment_key, NEW.computer, NEW.file_sha256,
      NEW.rows, NEW.totals, NEW.review, NEW.preparer, NEW.created_at)
     IS DISTINCT FROM (OLD.id, OLD.workspace_name, OLD.environment, OLD.environment_key, OLD.computer,
      OLD.file_sha256, OLD.rows, OLD.totals, OLD.review, OLD.preparer, OLD.created_at) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009', MESSAGE = 'What was submitted for approval cannot be changed; submit the upload again.';
  END IF;
  IF NEW.state IS DISTINCT FROM OLD.state AND NOT (
       (OLD.state = 'waiting' AND NEW.state IN ('approved', 'rejected', 'void'))
    OR (OLD.state = 'approved' AND NEW.state IN ('void', 'sent'))) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('An upload that is %s cannot become %s.', OLD.state, NEW.state);
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER upload_guarded BEFORE UPDATE OR DELETE ON desk.upload
  FOR EACH ROW EXECUTE FUNCTION desk.upload_guarded();
CREATE TRIGGER upload_no_truncate BEFORE TRUNCATE ON desk.upload
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();
CREATE FUNCTION desk.rule_changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_at := now();
  INSERT INTO desk.audit (action, origin, details) VALUES ('team-rule', 'team-database', jsonb_build_object(
    'before', jsonb_build_object('approval', OLD.approval, 'thresholds', OLD.thresholds),
    'after', jsonb_build_object('approval', NEW.approval, 'thresholds', NEW.thresholds)));
  RETURN NEW;
END
$$;
CREATE TRIGGER rule_changed BEFORE UPDATE ON desk.team_rule
  FOR EACH ROW EXECUTE FUNCTION desk.rule_changed();
CREATE TRIGGER team_rule_no_truncate BEFORE TRUNCATE ON desk.team_rule
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- ── The only ways an upload changes state ──
CREATE FUNCTION desk.decide(p_upload text, p_decision text, p_sha256 text, p_reason text,
  p_computer text DEFAULT '') RETURNS desk.upload LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  u desk.upload;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
BEGIN
  IF p_decision IS NULL OR p_decision NOT IN ('approve', 'reject') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009', MESSAGE = 'The decision is either approve or reject.';
  END IF;
  IF NOT pg_has_role(session_user, 'desk_approver', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002',
      MESSAGE = 'Only a person with the approver role may approve or reject uploads.';
  END IF;
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.preparer = session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'DD001',
      MESSAGE = 'You prepared this upload; another person must approve or reject it.';
  END IF;
  IF u.state <> 'waiting' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('This upload is no longer waiting for approval: it is %s.', u.state);
  END IF;
  IF p_sha256 IS DISTINCT FROM u.file_sha256 THEN
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = format('This decision is for a different file (SHA-256 %s) than the one submitted (SHA-256 %s); review the upload again.',
        coalesce(p_sha256, 'none'), u.file_sha256);
  END IF;
  IF p_decision = 'reject' AND v_reason IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'DD006', MESSAGE = 'Say why the upload is rejected: a reason is required.';
  END IF;
  UPDATE desk.upload SET
    state = CASE p_decision WHEN 'approve' THEN 'approved' ELSE 'rejected' END,
    decided_by = session_user, decided_at = now(), reason = v_reason
  WHERE id = p_upload RETURNING * INTO u;
  IF u.state = 'rejected' THEN
    UPDATE desk.sent_row SET released_at = now() WHERE upload_id = p_upload AND released_at IS NULL;
    PERFORM desk.abandon_upload_corrections(p_upload, p_computer);
  END IF;
  PERFORM desk.record(u, p_decision, 'waiting', v_reason, p_computer, NULL);
  RETURN u;
END
$$;
CREATE FUNCTION desk.void_upload(p_upload text, p_reason text, p_computer text DEFAULT '')
  RETURNS desk.upload LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  u desk.upload;
  v_from text;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
BEGIN
  IF v_reason IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'DD006', MESSAGE = 'Say why the approval no longer holds: a reason is required.';
  END IF;
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    -- Rows claimed before a submission that never came are released by the one who claimed them.
    UPDATE desk.sent_row SET released_at = now()
    WHERE upload_id = p_upload AND released_at IS NULL AND claimed_by = session_user;
    -- So are the corrections claimed for it.
    PERFORM desk.abandon_upload_corrections(p_upload, p_computer, session_user);
    RETURN NULL;
  END IF;
  IF u.preparer <> session_user AND NOT pg_has_role(session_user, 'desk_admin', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who prepared this upload, or a desk admin may void it.', u.preparer);
  END IF;
  IF u.state IN ('void', 'rejected') THEN
    RETURN u;
  END IF;
  IF u.state = 'sent' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = 'This upload was already sent: it can no longer be voided.';
  END IF;
  v_from := u.state;
  UPDATE desk.upload SET state = 'void', reason = v_reason WHERE id = p_upload RETURNING * INTO u;
  UPDATE desk.sent_row SET released_at = now() WHERE upload_id = p_upload AND released_at IS NULL;
  PERFORM desk.abandon_upload_corrections(p_upload, p_computer);
  PERFORM desk.record(u, 'void', v_from, v_reason, p_computer, NULL);
  RETURN u;
END
$$;
CREATE FUNCTION desk.mark_sent(p_upload text, p_sha256 text, p_computer text DEFAULT '')
  RETURNS desk.upload LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  u desk.upload;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.preparer <> session_user AND NOT pg_has_role(session_user, 'desk_approver', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who prepared this upload, or an approver may send it.', u.preparer);
  END IF;
  IF p_sha256 IS DISTINCT FROM u.file_sha256 THEN
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = format('This file (SHA-256 %s) is not the one approved (SHA-256 %s); submit it for approval again.',
        coalesce(p_sha256, 'none'), u.file_sha256);
  END IF;
  IF u.state = 'sent' THEN
    RETURN u;
  END IF;
  IF u.state <> 'approved' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = CASE u.state WHEN 'waiting' THEN 'This upload is still waiting for approval: it cannot be sent yet.'
        ELSE format('This upload was %s: it cannot be sent.', CASE u.state WHEN 'void' THEN 'voided' ELSE u.state END) END;
  END IF;
  UPDATE desk.upload SET state = 'sent', sent_by = session_user, sent_at = now()
  WHERE id = p_upload RETURNING * INTO u;
  PERFORM desk.record(u, 'send', 'approved', NULL, p_computer, NULL);
  RETURN u;
END
$$;

-- A sent bulk the service refused (whole, or some rows): the rows that got no donation are not
-- out, so the preparer's app gives their claims back. Only for a sent upload, only its preparer
-- (or an admin); answers how many claims were given back, and records it when any.
CREATE FUNCTION desk.release_rows(p_upload text, p_fingerprints text[], p_computer text DEFAULT '')
  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  u desk.upload;
  n integer;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.preparer <> session_user AND NOT pg_has_role(session_user, 'desk_admin', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who prepared this upload, or a desk admin may give its rows back.', u.preparer);
  END IF;
  IF u.state <> 'sent' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = 'Only the rows of a sent upload that the service refused can be given back; void or reject the upload instead.';
  END IF;
  UPDATE desk.sent_row SET released_at = now()
  WHERE upload_id = p_upload AND released_at IS NULL AND fingerprint = ANY (coalesce(p_fingerprints, '{}'));
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n > 0 THEN
    PERFORM desk.record(u, 'release-rows', u.state, NULL, p_computer, jsonb_build_object('releasedRows', n));
  END IF;
  RETURN n;
END
$$;

-- Claims rows for an upload in one go under a lock per environment, so that two computers
-- submitting at once cannot both claim a row: answers the conflicts (and claims nothing) or nothing.
CREATE FUNCTION desk.claim_rows(p_upload text, p_environment_key text, p_fingerprints text[],
  p_confirmed text[], p_confirm_all boolean, p_computer text DEFAULT '')
  RETURNS TABLE (fingerprint text, upload_id text, claimed_by text, computer text, claimed_at timestamptz)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
BEGIN
  IF NOT pg_has_role(session_user, 'desk_preparer', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002', MESSAGE = 'Only a person with the preparer role may send uploads.';
  END IF;
  IF EXISTS (SELECT 1 FROM desk.upload u WHERE u.id = p_upload) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = 'This upload was already submitted: its rows were claimed then.';
  END IF;
  IF EXISTS (SELECT 1 FROM desk.sent_row s WHERE s.upload_id = p_upload AND s.claimed_by <> session_user) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007', MESSAGE = 'These rows were claimed for this upload by another person.';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('desk.sent_row ' || p_environment_key, 0));
  -- One index probe per row asked about (LATERAL … LIMIT 1), whatever the planner thinks of the
  -- sizes: a join it misjudged went quadratic on 100,000 rows.
  IF NOT coalesce(p_confirm_all, false) THEN
    RETURN QUERY
      SELECT c.fingerprint, c.upload_id, c.claimed_by, c.computer, c.claimed_at
      FROM (SELECT f FROM unnest(p_fingerprints) AS f
            EXCEPT SELECT f FROM unnest(coalesce(p_confirmed, '{}')) AS f) wanted
      CROSS JOIN LATERAL (
        SELECT s.fingerprint, s.upload_id, s.claimed_by, s.computer, s.claimed_at
        FROM desk.sent_row s
        WHERE s.environment_key = p_environment_key AND s.fingerprint = wanted.f
          AND s.released_at IS NULL AND s.upload_id <> p_upload
        ORDER BY s.claimed_at LIMIT 1) c
      ORDER BY c.fingerprint;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  INSERT INTO desk.sent_row AS s (environment_key, fingerprint, upload_id, computer, again)
  SELECT p_environment_key, wanted.f, p_upload, coalesce(p_computer, ''),
    EXISTS (SELECT 1 FROM desk.sent_row o WHERE o.environment_key = p_environment_key
      AND o.fingerprint = wanted.f AND o.released_at IS NULL AND o.upload_id <> p_upload)
  FROM (SELECT DISTINCT f FROM unnest(p_fingerprints) AS f) wanted
  ON CONFLICT ON CONSTRAINT sent_row_pkey DO UPDATE SET released_at = NULL, claimed_at = now();
  RETURN;
END
$$;

-- ── The only ways a correction is claimed, finished or given back ──
-- Answers the claim in force and whether it is the caller's now: another login's claim that is in
-- progress or done is answered (granted false) and left alone; an abandoned one is taken over; the
-- caller's own claim in progress is a retry and stays theirs.
CREATE FUNCTION desk.claim_correction(p_environment_key text, p_donation_id text, p_how text,
  p_upload text DEFAULT NULL, p_computer text DEFAULT '')
  RETURNS TABLE (granted boolean, environment_key text, donation_id text, claimed_by text, computer text,
    claimed_at timestamptz, how text, upload_id text, replacement_id text, state text)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
DECLARE
  c desk.correction;
  v_granted boolean := true;
BEGIN
  IF NOT pg_has_role(session_user, 'desk_preparer', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002', MESSAGE = 'Only a person with the preparer role may correct declined donations.';
  END IF;
  IF p_how IS NULL OR p_how NOT IN ('single', 'upload') OR (p_how = 'upload') <> (p_upload IS NOT NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009',
      MESSAGE = 'A correction is sent either on its own or in an upload (with that upload''s id).';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('desk.correction ' || p_environment_key || ' ' || p_donation_id, 0));
  SELECT * INTO c FROM desk.correction k
  WHERE k.environment_key = p_environment_key AND k.donation_id = p_donation_id FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO desk.correction (environment_key, donation_id, computer, how, upload_id)
    VALUES (p_environment_key, p_donation_id, coalesce(p_computer, ''), p_how, p_upload) RETURNING * INTO c;
    PERFORM desk.record_correction(c, 'correction-claim', p_computer);
  ELSIF c.state = 'abandoned' OR (c.state = 'in-progress' AND c.claimed_by = session_user) THEN
    UPDATE desk.correction k SET state = 'in-progress', computer = coalesce(p_computer, ''), how = p_how,
      upload_id = p_upload, replacement_id = NULL
    WHERE k.environment_key = p_environment_key AND k.donation_id = p_donation_id RETURNING * INTO c;
    PERFORM desk.record_correction(c, 'correction-claim', p_computer);
  ELSE
    v_granted := false;
  END IF;
  RETURN QUERY SELECT v_granted, c.environment_key, c.donation_id, c.claimed_by, c.computer, c.claimed_at,
    c.how, c.upload_id, c.replacement_id, c.state;
END
$$;
CREATE FUNCTION desk.finish_correction(p_environment_key text, p_donation_id text, p_replacement_id text,
  p_computer text DEFAULT '') RETURNS desk.correction LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c desk.correction;
BEGIN
  IF nullif(btrim(coalesce(p_replacement_id, '')), '') IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009', MESSAGE = 'A finished correction names its replacement donation.';
  END IF;
  SELECT * INTO c FROM desk.correction
  WHERE environment_key = p_environment_key AND donation_id = p_donation_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004',
      MESSAGE = format('Nobody is correcting donation %s on the team database.', p_donation_id);
  END IF;
  IF c.claimed_by <> session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who is correcting donation %s, may finish that correction.', c.claimed_by, p_donation_id);
  END IF;
  IF c.state = 'done' AND c.replacement_id = p_replacement_id THEN
    RETURN c;
  END IF;
  IF c.state <> 'in-progress' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('The correction of donation %s is %s: it cannot be finished.', p_donation_id,
        CASE c.state WHEN 'done' THEN format('already done (replacement %s)', c.replacement_id) ELSE 'given up' END);
  END IF;
  UPDATE desk.correction SET state = 'done', replacement_id = p_replacement_id
  WHERE environment_key = p_environment_key AND donation_id = p_donation_id RETURNING * INTO c;
  PERFORM desk.record_correction(c, 'correction-done', p_computer);
  RETURN c;
END
$$;
CREATE FUNCTION desk.abandon_correction(p_environment_key text, p_donation_id text, p_computer text DEFAULT '')
  RETURNS desk.correction LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c desk.correction;
BEGIN
  SELECT * INTO c FROM desk.correction
  WHERE environment_key = p_environment_key AND donation_id = p_donation_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004',
      MESSAGE = format('Nobody is correcting donation %s on the team database.', p_donation_id);
  END IF;
  IF c.claimed_by <> session_user AND NOT pg_has_role(session_user, 'desk_admin', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who is correcting donation %s, or a desk admin may give that correction up.', c.claimed_by, p_donation_id);
  END IF;
  IF c.state = 'abandoned' THEN
    RETURN c;
  END IF;
  IF c.state = 'done' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('Donation %s was already replaced (replacement %s): that correction cannot be given up.', p_donation_id, c.replacement_id);
  END IF;
  UPDATE desk.correction SET state = 'abandoned'
  WHERE environment_key = p_environment_key AND donation_id = p_donation_id RETURNING * INTO c;
  PERFORM desk.record_correction(c, 'correction-abandon', p_computer);
  RETURN c;
END
$$;

-- ── Grants: nothing for PUBLIC; the preparer's rights, the approver's decide, the admin's rule ──
REVOKE ALL ON ALL TABLES IN SCHEMA desk FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA desk FROM PUBLIC;
GRANT SELECT ON desk.schema_version, desk.team_rule, desk.upload, desk.approval_event, desk.sent_row TO desk_preparer;
GRANT INSERT (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
  ON desk.upload TO desk_preparer;
GRANT INSERT (at, computer, environment, action, workspace_id, upload_id, donation_id, details, origin, origin_seq)
  ON desk.audit TO desk_preparer;
GRANT SELECT ON desk.audit TO desk_preparer;
GRANT SELECT, INSERT, UPDATE, DELETE ON desk.follow_lease TO desk_preparer;

-- The CHECK constraints call these as the inserting login.
GRANT EXECUTE ON FUNCTION desk.valid_totals(jsonb), desk.valid_thresholds(jsonb) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.needs_approval(jsonb) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.claim_rows(text, text, text[], text[], boolean, text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.void_upload(text, text, text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.mark_sent(text, text, text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.release_rows(text, text[], text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.decide(text, text, text, text, text) TO desk_approver;
GRANT SELECT ON desk.correction TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.claim_correction(text, text, text, text, text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.finish_correction(text, text, text, text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.abandon_correction(text, text, text) TO desk_preparer;
GRANT UPDATE (approval, thresholds) ON desk.team_rule TO desk_admin;
