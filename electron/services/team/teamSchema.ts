/*
 * The team database's schema, as the SQL that `donation-desk db init-team` runs (and prints): one
 * schema `desk`, three group roles, the tables, and the rules that a modified client cannot skip —
 * grants, triggers, and SECURITY DEFINER functions that are the only way an upload changes state.
 *
 * Identity is `session_user`, the login that connected: inside a SECURITY DEFINER function
 * `current_user` is the function's owner, and `SET ROLE` changes `current_user` but not who logged in.
 *
 * Refusals are raised with SQLSTATEs of class DD (unused by PostgreSQL), mapped by teamDatabase.ts:
 *   DD001 the preparer may not decide their own upload     DD002 the caller lacks the role
 *   DD003 a different file (SHA-256) than the one submitted DD004 no such upload
 *   DD005 the upload is not in a state that allows it       DD006 a reason is required
 *   DD007 not the preparer (or an admin / approver)         DD008 insert-only table
 *   DD009 a value or a change the desk does not accept     DD010 a correction is held by another person
 *   DD011 the upload was already sent by another login or computer
 *
 * Migrations: each version is a list of statements; an admin's init-team runs every missing one in
 * one transaction. The app only checks the version on connect. Later versions must stay additive,
 * so an app one version behind keeps working while the team updates.
 */

export interface TeamMigration {
  version: number;
  summary: string;
  statements: string[];
}

/** The desk's group roles: NOLOGIN, granted to each person's own login by the team's admin. */
export const TEAM_ROLES = ['desk_preparer', 'desk_approver', 'desk_admin'] as const;

/** The audit entries the database itself writes (origin 'team-database'). */
export const TEAM_AUDIT_ACTIONS = [
  'submit',
  'approve',
  'reject',
  'void',
  'send',
  'team-rule',
  'correction-claim',
  'correction-done',
  'correction-abandon',
] as const;
export const TEAM_AUDIT_ORIGIN = 'team-database';

const SAFE = 'LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp';

const createRole = (role: string) => `DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '${role}') THEN
    CREATE ROLE ${role} NOLOGIN;
  END IF;
END
$$`;

const insertOnly = (table: string) => [
  `CREATE TRIGGER ${table}_no_change BEFORE UPDATE OR DELETE ON desk.${table}
  FOR EACH ROW EXECUTE FUNCTION desk.refuse_change()`,
  `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON desk.${table}
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change()`,
];

const version1: string[] = [
  // ── Roles (cluster-wide in PostgreSQL: made once, kept if another desk database made them) ──
  createRole('desk_preparer'),
  createRole('desk_approver'),
  createRole('desk_admin'),
  // An approver may also prepare; an admin holds both and may grant them (and preparer) to logins.
  'GRANT desk_preparer TO desk_approver',
  'GRANT desk_preparer TO desk_admin WITH ADMIN OPTION',
  'GRANT desk_approver TO desk_admin WITH ADMIN OPTION',
  // Only the desk's people may connect to this database.
  `DO $$
BEGIN
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO desk_preparer', current_database());
END
$$`,

  // ── Schema and version ──
  'CREATE SCHEMA desk',
  'REVOKE ALL ON SCHEMA desk FROM PUBLIC',
  'GRANT USAGE ON SCHEMA desk TO desk_preparer',
  `CREATE TABLE desk.schema_version (
  version integer PRIMARY KEY,
  summary text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  applied_by text NOT NULL DEFAULT session_user
)`,

  // ── Shared helpers ──
  `CREATE FUNCTION desk.refuse_change() RETURNS trigger ${SAFE} AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'DD008',
    MESSAGE = format('%s is insert-only: its entries cannot be changed or removed.',
      CASE TG_TABLE_NAME WHEN 'audit' THEN 'The audit trail'
        WHEN 'approval_event' THEN 'The approval history' ELSE TG_TABLE_NAME END);
END
$$`,
  `CREATE FUNCTION desk.valid_thresholds(t jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT jsonb_typeof(t) = 'object' AND coalesce((
    SELECT bool_and(key ~ '^[A-Z]{3}$' AND jsonb_typeof(value) = 'number'
      AND value::text::numeric >= 0 AND value::text::numeric = trunc(value::text::numeric))
    FROM jsonb_each(t)), true)
$$`,
  `CREATE FUNCTION desk.valid_totals(t jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT jsonb_typeof(t) = 'array' AND coalesce((
    SELECT bool_and(jsonb_typeof(e) = 'object'
      AND jsonb_typeof(e->'currencyCode') = 'string' AND (e->>'currencyCode') ~ '^[A-Z]{3}$'
      AND jsonb_typeof(e->'amount') = 'number' AND (e->>'amount')::numeric = trunc((e->>'amount')::numeric)
      AND jsonb_typeof(e->'count') = 'number' AND (e->>'count')::numeric >= 0)
    FROM jsonb_array_elements(t) e), true)
$$`,

  // ── The team's rule: one row, changed by desk_admin only ──
  `CREATE TABLE desk.team_rule (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  approval text NOT NULL DEFAULT 'always' CHECK (approval IN ('always', 'above', 'never')),
  thresholds jsonb NOT NULL DEFAULT '{}' CHECK (desk.valid_thresholds(thresholds)),
  changed_by text NOT NULL DEFAULT session_user,
  changed_at timestamptz NOT NULL DEFAULT now()
)`,
  `INSERT INTO desk.team_rule (id) VALUES (true)`,

  // ── Uploads submitted to the team ──
  `CREATE TABLE desk.upload (
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
)`,
  'CREATE INDEX upload_state ON desk.upload (state, created_at DESC)',
  "CREATE INDEX upload_month ON desk.upload (environment, (review->>'month')) WHERE state = 'sent'",

  // ── The approval history: every submission, decision, void and send ──
  `CREATE TABLE desk.approval_event (
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
)`,
  'CREATE INDEX approval_event_upload ON desk.approval_event (upload_id, seq)',
  ...insertOnly('approval_event'),

  // ── The shared duplicate guard: a row is out while the upload that claimed it is not released ──
  `CREATE TABLE desk.sent_row (
  environment_key text NOT NULL,
  fingerprint text NOT NULL,
  upload_id text NOT NULL,
  computer text NOT NULL DEFAULT '',
  claimed_by text NOT NULL DEFAULT session_user,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  released_at timestamptz,
  again boolean NOT NULL DEFAULT false,
  PRIMARY KEY (upload_id, environment_key, fingerprint)
)`,
  'CREATE INDEX sent_row_live ON desk.sent_row (environment_key, fingerprint) WHERE released_at IS NULL',
  // The last line of defence under claim_rows' lock: one live first claim per row.
  `CREATE UNIQUE INDEX sent_row_one_live ON desk.sent_row (environment_key, fingerprint)
  WHERE released_at IS NULL AND NOT again`,

  // ── The audit trail: insert-only for everyone, the person is the login ──
  `CREATE TABLE desk.audit (
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
)`,
  'CREATE INDEX audit_at ON desk.audit (at)',
  'CREATE INDEX audit_workspace ON desk.audit (workspace_id, seq) WHERE workspace_id IS NOT NULL',
  'CREATE INDEX audit_upload ON desk.audit (upload_id, seq) WHERE upload_id IS NOT NULL',
  'CREATE INDEX audit_donation ON desk.audit (donation_id, seq) WHERE donation_id IS NOT NULL',
  'CREATE INDEX audit_person ON desk.audit (person, seq)',
  // Not SECURITY DEFINER: current_user here is the inserting side, the schema's owner only when
  // the desk's own functions write, so only they may sign an entry as the database's.
  `CREATE FUNCTION desk.audit_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.origin = '${TEAM_AUDIT_ORIGIN}' AND NOT EXISTS (SELECT 1 FROM pg_namespace n
      JOIN pg_roles r ON r.oid = n.nspowner WHERE n.nspname = 'desk' AND r.rolname = current_user) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009',
      MESSAGE = 'Entries of origin ${TEAM_AUDIT_ORIGIN} are written by the team database itself.';
  END IF;
  NEW.person := session_user;
  NEW.recorded_at := now();
  RETURN NEW;
END
$$`,
  `CREATE TRIGGER audit_stamp BEFORE INSERT ON desk.audit
  FOR EACH ROW EXECUTE FUNCTION desk.audit_stamp()`,
  ...insertOnly('audit'),

  // ── Follow leases: one computer follows an upload at a time ──
  `CREATE TABLE desk.follow_lease (
  key text PRIMARY KEY,
  holder text NOT NULL,
  computer text NOT NULL DEFAULT '',
  login text NOT NULL DEFAULT session_user,
  until timestamptz NOT NULL
)`,

  // ── Corrections of declined donations: one person at a time replaces a declined donation ──
  `CREATE TABLE desk.correction (
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
)`,
  'CREATE INDEX correction_upload ON desk.correction (upload_id) WHERE upload_id IS NOT NULL',
  // Whoever writes a claim, it is the login's: even the desk's own functions cannot sign for another.
  `CREATE FUNCTION desk.correction_stamped() RETURNS trigger ${SAFE} AS $$
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
$$`,
  `CREATE TRIGGER correction_stamped BEFORE INSERT OR UPDATE ON desk.correction
  FOR EACH ROW EXECUTE FUNCTION desk.correction_stamped()`,
  `CREATE FUNCTION desk.record_correction(c desk.correction, p_action text, p_computer text)
  RETURNS void ${SAFE} AS $$
BEGIN
  INSERT INTO desk.audit (computer, environment, action, upload_id, donation_id, origin, details)
  VALUES (coalesce(p_computer, ''), split_part(c.environment_key, '|', 1), p_action, c.upload_id,
    c.donation_id, '${TEAM_AUDIT_ORIGIN}', jsonb_strip_nulls(jsonb_build_object(
      'environmentKey', c.environment_key, 'claimedBy', c.claimed_by, 'how', c.how,
      'state', c.state, 'replacementId', c.replacement_id)));
END
$$`,
  // Gives every open claim of an upload back when the upload will not go (voided or rejected).
  // (p_by: only that login's, for an upload that was never submitted.)
  `CREATE FUNCTION desk.abandon_upload_corrections(p_upload text, p_computer text, p_by text DEFAULT NULL)
  RETURNS void ${SAFE} AS $$
DECLARE
  c desk.correction;
BEGIN
  FOR c IN UPDATE desk.correction SET state = 'abandoned'
    WHERE upload_id = p_upload AND how = 'upload' AND state = 'in-progress'
      AND (p_by IS NULL OR claimed_by = p_by) RETURNING * LOOP
    PERFORM desk.record_correction(c, 'correction-abandon', p_computer);
  END LOOP;
END
$$`,

  // ── The rule in force, applied by the database at submission ──
  `CREATE FUNCTION desk.needs_approval(p_totals jsonb) RETURNS boolean ${SAFE} STABLE AS $$
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
$$`,

  `CREATE FUNCTION desk.record(p_upload desk.upload, p_action text, p_from text, p_reason text,
  p_computer text, p_details jsonb) RETURNS void ${SAFE} AS $$
BEGIN
  INSERT INTO desk.approval_event (upload_id, action, computer, file_sha256, state_before, state_after, reason)
  VALUES (p_upload.id, p_action, coalesce(p_computer, ''), p_upload.file_sha256, p_from, p_upload.state, p_reason);
  INSERT INTO desk.audit (computer, environment, action, upload_id, origin, details)
  VALUES (coalesce(p_computer, ''), p_upload.environment, p_action, p_upload.id, '${TEAM_AUDIT_ORIGIN}',
    jsonb_strip_nulls(jsonb_build_object(
      'workspaceName', p_upload.workspace_name, 'fileSha256', p_upload.file_sha256,
      'rows', p_upload.rows, 'totals', p_upload.totals, 'preparer', p_upload.preparer,
      'stateBefore', p_from, 'state', p_upload.state, 'reason', p_reason)) || coalesce(p_details, '{}'));
END
$$`,

  // Submission: the preparer is the login, the state is the rule's, nothing else is the client's say.
  `CREATE FUNCTION desk.upload_submitted() RETURNS trigger ${SAFE} AS $$
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
$$`,
  `CREATE TRIGGER upload_submitted BEFORE INSERT ON desk.upload
  FOR EACH ROW EXECUTE FUNCTION desk.upload_submitted()`,
  `CREATE FUNCTION desk.upload_recorded() RETURNS trigger ${SAFE} AS $$
BEGIN
  PERFORM desk.record(NEW, 'submit', NULL, NULL, NEW.computer, NULL);
  RETURN NULL;
END
$$`,
  `CREATE TRIGGER upload_recorded AFTER INSERT ON desk.upload
  FOR EACH ROW EXECUTE FUNCTION desk.upload_recorded()`,
  // Even the functions (and the owner) keep what was submitted, and only move the state forward.
  `CREATE FUNCTION desk.upload_guarded() RETURNS trigger ${SAFE} AS $$
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
$$`,
  `CREATE TRIGGER upload_guarded BEFORE UPDATE OR DELETE ON desk.upload
  FOR EACH ROW EXECUTE FUNCTION desk.upload_guarded()`,
  `CREATE TRIGGER upload_no_truncate BEFORE TRUNCATE ON desk.upload
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change()`,

  `CREATE FUNCTION desk.rule_changed() RETURNS trigger ${SAFE} AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_at := now();
  INSERT INTO desk.audit (action, origin, details) VALUES ('team-rule', '${TEAM_AUDIT_ORIGIN}', jsonb_build_object(
    'before', jsonb_build_object('approval', OLD.approval, 'thresholds', OLD.thresholds),
    'after', jsonb_build_object('approval', NEW.approval, 'thresholds', NEW.thresholds)));
  RETURN NEW;
END
$$`,
  `CREATE TRIGGER rule_changed BEFORE UPDATE ON desk.team_rule
  FOR EACH ROW EXECUTE FUNCTION desk.rule_changed()`,
  `CREATE TRIGGER team_rule_no_truncate BEFORE TRUNCATE ON desk.team_rule
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change()`,

  // ── The only ways an upload changes state ──
  `CREATE FUNCTION desk.decide(p_upload text, p_decision text, p_sha256 text, p_reason text,
  p_computer text DEFAULT '') RETURNS desk.upload ${SAFE} AS $$
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
$$`,

  `CREATE FUNCTION desk.void_upload(p_upload text, p_reason text, p_computer text DEFAULT '')
  RETURNS desk.upload ${SAFE} AS $$
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
$$`,

  `CREATE FUNCTION desk.mark_sent(p_upload text, p_sha256 text, p_computer text DEFAULT '')
  RETURNS desk.upload ${SAFE} AS $$
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
$$`,

  // A sent bulk the service refused (whole, or some rows): the rows that got no donation are not
  // out, so the preparer's app gives their claims back. Only for a sent upload, only its preparer
  // (or an admin); answers how many claims were given back, and records it when any.
  `CREATE FUNCTION desk.release_rows(p_upload text, p_fingerprints text[], p_computer text DEFAULT '')
  RETURNS integer ${SAFE} AS $$
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
$$`,

  // Claims rows for an upload in one go under a lock per environment, so that two computers
  // submitting at once cannot both claim a row: answers the conflicts (and claims nothing) or nothing.
  `CREATE FUNCTION desk.claim_rows(p_upload text, p_environment_key text, p_fingerprints text[],
  p_confirmed text[], p_confirm_all boolean, p_computer text DEFAULT '')
  RETURNS TABLE (fingerprint text, upload_id text, claimed_by text, computer text, claimed_at timestamptz)
  ${SAFE} AS $$
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
$$`,

  // ── The only ways a correction is claimed, finished or given back ──
  // Answers the claim in force and whether it is the caller's now: another login's claim that is in
  // progress or done is answered (granted false) and left alone; an abandoned one is taken over; the
  // caller's own claim in progress is a retry and stays theirs.
  `CREATE FUNCTION desk.claim_correction(p_environment_key text, p_donation_id text, p_how text,
  p_upload text DEFAULT NULL, p_computer text DEFAULT '')
  RETURNS TABLE (granted boolean, environment_key text, donation_id text, claimed_by text, computer text,
    claimed_at timestamptz, how text, upload_id text, replacement_id text, state text)
  ${SAFE} AS $$
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
$$`,

  `CREATE FUNCTION desk.finish_correction(p_environment_key text, p_donation_id text, p_replacement_id text,
  p_computer text DEFAULT '') RETURNS desk.correction ${SAFE} AS $$
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
$$`,

  `CREATE FUNCTION desk.abandon_correction(p_environment_key text, p_donation_id text, p_computer text DEFAULT '')
  RETURNS desk.correction ${SAFE} AS $$
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
$$`,

  // ── Grants: nothing for PUBLIC; the preparer's rights, the approver's decide, the admin's rule ──
  'REVOKE ALL ON ALL TABLES IN SCHEMA desk FROM PUBLIC',
  'REVOKE ALL ON ALL FUNCTIONS IN SCHEMA desk FROM PUBLIC',
  'GRANT SELECT ON desk.schema_version, desk.team_rule, desk.upload, desk.approval_event, desk.sent_row TO desk_preparer',
  `GRANT INSERT (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
  ON desk.upload TO desk_preparer`,
  `GRANT INSERT (at, computer, environment, action, workspace_id, upload_id, donation_id, details, origin, origin_seq)
  ON desk.audit TO desk_preparer`,
  'GRANT SELECT ON desk.audit TO desk_preparer',
  'GRANT SELECT, INSERT, UPDATE, DELETE ON desk.follow_lease TO desk_preparer',
  // The CHECK constraints call these as the inserting login.
  'GRANT EXECUTE ON FUNCTION desk.valid_totals(jsonb), desk.valid_thresholds(jsonb) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.needs_approval(jsonb) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.claim_rows(text, text, text[], text[], boolean, text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.void_upload(text, text, text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.mark_sent(text, text, text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.release_rows(text, text[], text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.decide(text, text, text, text, text) TO desk_approver',
  'GRANT SELECT ON desk.correction TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.claim_correction(text, text, text, text, text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.finish_correction(text, text, text, text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.abandon_correction(text, text, text) TO desk_preparer',
  'GRANT UPDATE (approval, thresholds) ON desk.team_rule TO desk_admin',
];

// ── Version 2: the shared ledger Reconcile reads (issue 14, "Reconcile works across the team") ──
// Every bulk a team upload created at the service, and every donation sent one by one (a single
// donation from the form, a correction), so each computer lists the team's donations — not only the
// ones it sent — and the month-end report is the same on every computer. Written by the computer
// that sent them, through functions only: a bulk belongs to a sent upload and is written by the login
// that sent it; the rest of the team reads.
const version2: string[] = [
  `CREATE TABLE desk.sent_bulk (
  environment_key text NOT NULL,
  bulk_id text NOT NULL CHECK (length(bulk_id) BETWEEN 1 AND 200),
  upload_id text NOT NULL REFERENCES desk.upload (id),
  part integer NOT NULL CHECK (part >= 0),
  -- When the upload was made on the computer that sent it: the month the report counts it in.
  upload_created_at timestamptz NOT NULL,
  -- The part's rows per currency, as sent.
  part_totals jsonb NOT NULL CHECK (desk.valid_totals(part_totals)),
  -- Where the bulk stands as its sender last followed it (UPLOADED … PROCESSED or ERROR).
  state text NOT NULL CHECK (state IN ('UPLOADED', 'VALIDATED', 'PROCESSING', 'PROCESSED', 'ERROR')),
  -- What the service took: the rows that got a donation, per currency; null while not known.
  taken_totals jsonb CHECK (taken_totals IS NULL OR desk.valid_totals(taken_totals)),
  sent_by text NOT NULL DEFAULT session_user,
  computer text NOT NULL DEFAULT '',
  recorded_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_key, bulk_id)
)`,
  'CREATE INDEX sent_bulk_upload ON desk.sent_bulk (upload_id, part)',
  `CREATE FUNCTION desk.publish_bulk(p_environment_key text, p_bulk_id text, p_upload text, p_part integer,
  p_upload_created_at timestamptz, p_part_totals jsonb, p_state text, p_taken_totals jsonb,
  p_computer text DEFAULT '') RETURNS void ${SAFE} AS $$
DECLARE
  u desk.upload;
  b desk.sent_bulk;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.state <> 'sent' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('Upload %s was not sent (it is %s): it has no bulk at the service.', p_upload, u.state);
  END IF;
  IF u.sent_by <> session_user AND NOT pg_has_role(session_user, 'desk_admin', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who sent upload %s, may record its bulks.', u.sent_by, p_upload);
  END IF;
  IF p_environment_key IS DISTINCT FROM u.environment_key THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009', MESSAGE = 'A bulk belongs to the service its upload was sent to.';
  END IF;
  SELECT * INTO b FROM desk.sent_bulk WHERE environment_key = p_environment_key AND bulk_id = p_bulk_id FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO desk.sent_bulk (environment_key, bulk_id, upload_id, part, upload_created_at, part_totals,
      state, taken_totals, computer)
    VALUES (p_environment_key, p_bulk_id, p_upload, p_part, p_upload_created_at, p_part_totals, p_state,
      p_taken_totals, coalesce(p_computer, ''));
    RETURN;
  END IF;
  IF (b.upload_id, b.part) IS DISTINCT FROM (p_upload, p_part) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009',
      MESSAGE = format('Bulk %s was already recorded for upload %s, part %s.', p_bulk_id, b.upload_id, b.part + 1);
  END IF;
  -- What was sent stays; where it stands, and what the service took, are brought up to date.
  UPDATE desk.sent_bulk SET state = p_state, taken_totals = coalesce(p_taken_totals, taken_totals),
    updated_at = now()
  WHERE environment_key = p_environment_key AND bulk_id = p_bulk_id;
END
$$`,
  `CREATE TRIGGER sent_bulk_no_truncate BEFORE TRUNCATE ON desk.sent_bulk
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change()`,

  `CREATE TABLE desk.sent_one (
  environment_key text NOT NULL,
  donation_id text NOT NULL CHECK (length(donation_id) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('single', 'replaces')),
  -- When the service answered: the month the report counts it in.
  sent_at timestamptz NOT NULL,
  sent_by text NOT NULL DEFAULT session_user,
  computer text NOT NULL DEFAULT '',
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_key, donation_id)
)`,
  `CREATE FUNCTION desk.publish_one(p_environment_key text, p_donation_id text, p_kind text, p_sent_at timestamptz,
  p_computer text DEFAULT '') RETURNS void ${SAFE} AS $$
BEGIN
  IF NOT pg_has_role(session_user, 'desk_preparer', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002', MESSAGE = 'Only a person with the preparer role may send donations.';
  END IF;
  INSERT INTO desk.sent_one (environment_key, donation_id, kind, sent_at, computer)
  VALUES (p_environment_key, p_donation_id, p_kind, p_sent_at, coalesce(p_computer, ''))
  ON CONFLICT (environment_key, donation_id) DO NOTHING;
END
$$`,
  ...insertOnly('sent_one'),

  // ── Dismissals of declined donations: closed for the whole team, never corrected afterwards ──
  `CREATE TABLE desk.dismissal (
  environment_key text NOT NULL,
  donation_id text NOT NULL CHECK (length(donation_id) BETWEEN 1 AND 200),
  reason text NOT NULL CHECK (length(btrim(reason)) > 0),
  dismissed_by text NOT NULL DEFAULT session_user,
  computer text NOT NULL DEFAULT '',
  dismissed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_key, donation_id)
)`,
  ...insertOnly('dismissal'),
  // Under the same lock as claim_correction, so a dismissal and a claim cannot both go through.
  `CREATE FUNCTION desk.dismiss(p_environment_key text, p_donation_id text, p_reason text, p_computer text DEFAULT '')
  RETURNS desk.dismissal ${SAFE} AS $$
DECLARE
  c desk.correction;
  d desk.dismissal;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
BEGIN
  IF NOT pg_has_role(session_user, 'desk_preparer', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002', MESSAGE = 'Only a person with the preparer role may dismiss declined donations.';
  END IF;
  IF v_reason IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'DD006', MESSAGE = 'Say why the declined donation is dismissed: a reason is required.';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('desk.correction ' || p_environment_key || ' ' || p_donation_id, 0));
  SELECT * INTO d FROM desk.dismissal WHERE environment_key = p_environment_key AND donation_id = p_donation_id;
  IF FOUND THEN
    RETURN d;
  END IF;
  SELECT * INTO c FROM desk.correction WHERE environment_key = p_environment_key AND donation_id = p_donation_id;
  IF FOUND AND c.state = 'done' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD010',
      MESSAGE = format('This donation was already replaced by %s (replacement %s): it cannot be dismissed.', c.claimed_by, c.replacement_id);
  END IF;
  IF FOUND AND c.state = 'in-progress' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD010',
      MESSAGE = format('%s is correcting this donation (since %s UTC): it cannot be dismissed while that correction stands.',
        c.claimed_by, to_char(c.claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'));
  END IF;
  INSERT INTO desk.dismissal (environment_key, donation_id, reason, computer)
  VALUES (p_environment_key, p_donation_id, v_reason, coalesce(p_computer, '')) RETURNING * INTO d;
  RETURN d;
END
$$`,
  // A dismissed donation is closed for the team: no claim to correct it goes through afterwards.
  `CREATE FUNCTION desk.correction_not_dismissed() RETURNS trigger ${SAFE} AS $$
DECLARE
  d desk.dismissal;
BEGIN
  IF NEW.state = 'in-progress' THEN
    SELECT * INTO d FROM desk.dismissal WHERE environment_key = NEW.environment_key AND donation_id = NEW.donation_id;
    IF FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'DD010',
        MESSAGE = format('This donation was dismissed by %s on %s (%s): a correction would pay a gift the team closed.',
          d.dismissed_by, to_char(d.dismissed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), d.reason);
    END IF;
  END IF;
  RETURN NEW;
END
$$`,
  `CREATE TRIGGER correction_not_dismissed BEFORE INSERT OR UPDATE ON desk.correction
  FOR EACH ROW EXECUTE FUNCTION desk.correction_not_dismissed()`,

  'REVOKE ALL ON desk.sent_bulk, desk.sent_one, desk.dismissal FROM PUBLIC',
  'REVOKE ALL ON FUNCTION desk.publish_bulk(text, text, text, integer, timestamptz, jsonb, text, jsonb, text) FROM PUBLIC',
  'REVOKE ALL ON FUNCTION desk.publish_one(text, text, text, timestamptz, text) FROM PUBLIC',
  'GRANT SELECT ON desk.sent_bulk, desk.sent_one, desk.dismissal TO desk_preparer',
  'REVOKE ALL ON FUNCTION desk.dismiss(text, text, text, text) FROM PUBLIC',
  'GRANT EXECUTE ON FUNCTION desk.dismiss(text, text, text, text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.publish_bulk(text, text, text, integer, timestamptz, jsonb, text, jsonb, text) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.publish_one(text, text, text, timestamptz, text) TO desk_preparer',

  // ── Who sends an approved upload: its preparer (as before) or the approver who approved it ──
  // (issue 14, "by the preparer or the approver, as the team chooses"). The choice in force at
  // submission is kept on the upload; an upload no one had to approve is sent by its preparer.
  `ALTER TABLE desk.team_rule ADD COLUMN sender text NOT NULL DEFAULT 'preparer'
  CHECK (sender IN ('preparer', 'approver'))`,
  'GRANT UPDATE (sender) ON desk.team_rule TO desk_admin',
  `CREATE OR REPLACE FUNCTION desk.rule_changed() RETURNS trigger ${SAFE} AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_at := now();
  INSERT INTO desk.audit (action, origin, details) VALUES ('team-rule', '${TEAM_AUDIT_ORIGIN}', jsonb_build_object(
    'before', jsonb_build_object('approval', OLD.approval, 'thresholds', OLD.thresholds, 'sender', OLD.sender),
    'after', jsonb_build_object('approval', NEW.approval, 'thresholds', NEW.thresholds, 'sender', NEW.sender)));
  RETURN NEW;
END
$$`,
  `ALTER TABLE desk.upload ADD COLUMN sender text NOT NULL DEFAULT 'preparer'
  CHECK (sender IN ('preparer', 'approver'))`,
  // The computer that sent it (with sent_by): the only one that may ask to send it again.
  'ALTER TABLE desk.upload ADD COLUMN sent_from text',
  `CREATE OR REPLACE FUNCTION desk.upload_submitted() RETURNS trigger ${SAFE} AS $$
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
$$`,
  `CREATE OR REPLACE FUNCTION desk.upload_guarded() RETURNS trigger ${SAFE} AS $$
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
    OR (OLD.state = 'approved' AND NEW.state IN ('void', 'sent'))) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('An upload that is %s cannot become %s.', OLD.state, NEW.state);
  END IF;
  RETURN NEW;
END
$$`,

  // The exact gzip part files of an upload the approver sends, stored by its preparer's computer with
  // the submission. The database hashes the bytes itself (a client cannot name a hash), and keeps them.
  `CREATE TABLE desk.upload_file (
  upload_id text NOT NULL REFERENCES desk.upload (id),
  part integer NOT NULL CHECK (part >= 0 AND part < 10000),
  bytes bytea NOT NULL CHECK (octet_length(bytes) > 0),
  sha256 text NOT NULL,
  stored_by text NOT NULL DEFAULT session_user,
  stored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (upload_id, part)
)`,
  `CREATE FUNCTION desk.upload_file_stamped() RETURNS trigger ${SAFE} AS $$
BEGIN
  NEW.sha256 := encode(sha256(NEW.bytes), 'hex');
  NEW.stored_by := session_user;
  NEW.stored_at := now();
  RETURN NEW;
END
$$`,
  `CREATE TRIGGER upload_file_stamped BEFORE INSERT ON desk.upload_file
  FOR EACH ROW EXECUTE FUNCTION desk.upload_file_stamped()`,
  ...insertOnly('upload_file'),
  // Whether the stored parts are exactly the file submitted: every part 0…n-1, and their hashes give
  // the upload's file_sha256 by the rule of bulkFileSha256 (one part: its hash; several: the hash of
  // their hashes joined by a line feed, in part order).
  `CREATE FUNCTION desk.upload_file_matches(u desk.upload) RETURNS boolean ${SAFE} STABLE AS $$
DECLARE
  n integer;
  top integer;
  h text;
BEGIN
  SELECT count(*), max(part) INTO n, top FROM desk.upload_file WHERE upload_id = u.id;
  IF n = 0 OR top <> n - 1 THEN
    RETURN false;
  END IF;
  IF n = 1 THEN
    SELECT f.sha256 INTO h FROM desk.upload_file f WHERE f.upload_id = u.id;
  ELSE
    SELECT encode(sha256(convert_to(string_agg(f.sha256, E'\\n' ORDER BY f.part), 'UTF8')), 'hex') INTO h
    FROM desk.upload_file f WHERE f.upload_id = u.id;
  END IF;
  RETURN h = u.file_sha256;
END
$$`,
  `CREATE FUNCTION desk.store_upload_file(p_upload text, p_part integer, p_bytes bytea)
  RETURNS text ${SAFE} AS $$
DECLARE
  u desk.upload;
  f desk.upload_file;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.preparer <> session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who prepared upload %s, may store its file.', u.preparer, p_upload);
  END IF;
  IF u.sender <> 'approver' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009',
      MESSAGE = 'This upload is sent by its preparer: its file stays on the preparer''s computer.';
  END IF;
  IF u.state NOT IN ('waiting', 'approved') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('This upload is %s: its file is no longer taken.', u.state);
  END IF;
  SELECT * INTO f FROM desk.upload_file WHERE upload_id = p_upload AND part = p_part;
  IF FOUND THEN
    IF f.sha256 = encode(sha256(p_bytes), 'hex') THEN
      RETURN f.sha256;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = format('Part %s of upload %s was already stored with other bytes (SHA-256 %s): the file submitted cannot be swapped.',
        p_part + 1, p_upload, f.sha256);
  END IF;
  INSERT INTO desk.upload_file (upload_id, part, bytes, sha256) VALUES (p_upload, p_part, p_bytes, '')
  RETURNING * INTO f;
  RETURN f.sha256;
END
$$`,
  // The approver who approved an upload they send reads its parts, and only they (or a desk admin).
  `CREATE FUNCTION desk.fetch_upload_file(p_upload text, p_part integer)
  RETURNS TABLE (part integer, bytes bytea, sha256 text) ${SAFE} AS $$
#variable_conflict use_column
DECLARE
  u desk.upload;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF NOT pg_has_role(session_user, 'desk_approver', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002', MESSAGE = 'Only a person with the approver role may fetch an upload''s file.';
  END IF;
  IF u.sender <> 'approver' OR u.state NOT IN ('approved', 'sent')
     OR (u.decided_by IS DISTINCT FROM session_user AND NOT pg_has_role(session_user, 'desk_admin', 'MEMBER')) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only the approver who approved upload %s sends it, and only once it is approved.', p_upload);
  END IF;
  RETURN QUERY SELECT f.part, f.bytes, f.sha256 FROM desk.upload_file f
    WHERE f.upload_id = p_upload AND (p_part IS NULL OR f.part = p_part) ORDER BY f.part;
END
$$`,

  // Approving an upload the approver sends needs its exact file stored first.
  `CREATE OR REPLACE FUNCTION desk.decide(p_upload text, p_decision text, p_sha256 text, p_reason text,
  p_computer text DEFAULT '') RETURNS desk.upload ${SAFE} AS $$
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
  IF p_decision = 'approve' AND u.sender = 'approver' AND NOT desk.upload_file_matches(u) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = format('The file stored with this upload is not (or not yet) the one submitted (SHA-256 %s): it cannot be approved for you to send. Try again in a moment; if it stays so, reject it and ask %s to upload again.',
        u.file_sha256, u.preparer);
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
$$`,

  // Sent once, by one computer: the preparer's, or the approver's when the rule said so at submission.
  // Asked again, only the login and computer that sent it are answered; anyone else is told who did.
  `CREATE OR REPLACE FUNCTION desk.mark_sent(p_upload text, p_sha256 text, p_computer text DEFAULT '')
  RETURNS desk.upload ${SAFE} AS $$
DECLARE
  u desk.upload;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.preparer <> session_user AND NOT pg_has_role(session_user, 'desk_approver', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only %s, who prepared this upload, or the approver who approves it may send it.', u.preparer);
  END IF;
  IF p_sha256 IS DISTINCT FROM u.file_sha256 THEN
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = format('This file (SHA-256 %s) is not the one approved (SHA-256 %s); submit it for approval again.',
        coalesce(p_sha256, 'none'), u.file_sha256);
  END IF;
  IF u.state = 'sent' THEN
    IF u.sent_by = session_user AND (u.sent_from IS NULL OR u.sent_from = coalesce(p_computer, '')) THEN
      RETURN u;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'DD011',
      MESSAGE = format('This upload was already sent by %s%s on %s: it is not sent again.', u.sent_by,
        CASE WHEN coalesce(u.sent_from, '') <> '' THEN ' from ' || u.sent_from ELSE '' END,
        to_char(u.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'));
  END IF;
  IF u.sender = 'approver' AND session_user IS DISTINCT FROM u.decided_by THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = CASE WHEN u.decided_by IS NULL
        THEN 'The approver who approves this upload sends it from their computer (the team''s rule when it was submitted): it cannot be sent from here.'
        ELSE format('%s approved this upload and sends it from their computer (the team''s rule when it was submitted): it is not sent from here.', u.decided_by) END;
  END IF;
  IF u.sender = 'preparer' AND u.preparer <> session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('%s, who prepared this upload, sends it from their computer (the team''s rule when it was submitted).', u.preparer);
  END IF;
  IF u.state <> 'approved' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = CASE u.state WHEN 'waiting' THEN 'This upload is still waiting for approval: it cannot be sent yet.'
        ELSE format('This upload was %s: it cannot be sent.', CASE u.state WHEN 'void' THEN 'voided' ELSE u.state END) END;
  END IF;
  IF u.sender = 'approver' AND NOT desk.upload_file_matches(u) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = 'The file stored with this upload is not the one approved: it is not sent.';
  END IF;
  UPDATE desk.upload SET state = 'sent', sent_by = session_user, sent_at = now(), sent_from = coalesce(p_computer, '')
  WHERE id = p_upload RETURNING * INTO u;
  PERFORM desk.record(u, 'send', 'approved', NULL, p_computer, NULL);
  RETURN u;
END
$$`,
  'REVOKE ALL ON desk.upload_file FROM PUBLIC',
  'REVOKE ALL ON FUNCTION desk.upload_file_matches(desk.upload) FROM PUBLIC',
  'REVOKE ALL ON FUNCTION desk.store_upload_file(text, integer, bytea) FROM PUBLIC',
  'REVOKE ALL ON FUNCTION desk.fetch_upload_file(text, integer) FROM PUBLIC',
  'REVOKE ALL ON FUNCTION desk.upload_file_stamped() FROM PUBLIC',
  'GRANT EXECUTE ON FUNCTION desk.store_upload_file(text, integer, bytea) TO desk_preparer',
  'GRANT EXECUTE ON FUNCTION desk.fetch_upload_file(text, integer) TO desk_approver',
];

export const teamMigrations: TeamMigration[] = [
  {
    version: 1,
    summary:
      'roles, team rule, uploads and approvals, shared duplicate guard, audit trail, follow leases, corrections',
    statements: version1,
  },
  {
    version: 2,
    summary:
      'the shared ledger: bulks and donations sent one by one, and dismissals, for Reconcile on every computer; who sends an approved upload (preparer or approver) and the files an approver sends',
    statements: version2,
  },
];

export const TEAM_SCHEMA_VERSION = teamMigrations.at(-1)!.version;

/** The statement that records a version as applied (run last in its migration's transaction). */
export function recordVersionStatement(migration: TeamMigration): string {
  const summary = migration.summary.replace(/'/g, "''");
  return `INSERT INTO desk.schema_version (version, summary) VALUES (${migration.version}, '${summary}')`;
}
