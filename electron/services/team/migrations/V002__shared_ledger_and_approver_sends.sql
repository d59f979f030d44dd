-- Summary: the shared ledger: bulks and donations sent one by one, and dismissals, for Reconcile on every computer; who sends an approved upload (preparer or approver) and the files an approver sends
-- Version 2: the shared ledger Reconcile reads (issue 14, "Reconcile works across the team"), and
-- who sends an approved upload. Released: never edit it; a later file changes what it did.
--
-- Every bulk a team upload created at the service, and every donation sent one by one (a single
-- donation from the form, a correction), so each computer lists the team's donations — not only the
-- ones it sent — and the month-end report is the same on every computer. Written by the computer
-- that sent them, through functions only: a bulk belongs to a sent upload and is written by the login
-- that sent it; the rest of the team reads.
--
-- The functions this version redefines (rule_changed, upload_submitted, upload_guarded, decide,
-- mark_sent) are kept from here on in the repeatable files R__*.sql.

CREATE TABLE desk.sent_bulk (
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
);
CREATE INDEX sent_bulk_upload ON desk.sent_bulk (upload_id, part);
CREATE FUNCTION desk.publish_bulk(p_environment_key text, p_bulk_id text, p_upload text, p_part integer,
  p_upload_created_at timestamptz, p_part_totals jsonb, p_state text, p_taken_totals jsonb,
  p_computer text DEFAULT '') RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
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
$$;
CREATE TRIGGER sent_bulk_no_truncate BEFORE TRUNCATE ON desk.sent_bulk
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();
CREATE TABLE desk.sent_one (
  environment_key text NOT NULL,
  donation_id text NOT NULL CHECK (length(donation_id) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('single', 'replaces')),
  -- When the service answered: the month the report counts it in.
  sent_at timestamptz NOT NULL,
  sent_by text NOT NULL DEFAULT session_user,
  computer text NOT NULL DEFAULT '',
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_key, donation_id)
);
CREATE FUNCTION desk.publish_one(p_environment_key text, p_donation_id text, p_kind text, p_sent_at timestamptz,
  p_computer text DEFAULT '') RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT pg_has_role(session_user, 'desk_preparer', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002', MESSAGE = 'Only a person with the preparer role may send donations.';
  END IF;
  INSERT INTO desk.sent_one (environment_key, donation_id, kind, sent_at, computer)
  VALUES (p_environment_key, p_donation_id, p_kind, p_sent_at, coalesce(p_computer, ''))
  ON CONFLICT (environment_key, donation_id) DO NOTHING;
END
$$;
CREATE TRIGGER sent_one_no_change BEFORE UPDATE OR DELETE ON desk.sent_one
  FOR EACH ROW EXECUTE FUNCTION desk.refuse_change();
CREATE TRIGGER sent_one_no_truncate BEFORE TRUNCATE ON desk.sent_one
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- ── Dismissals of declined donations: closed for the whole team, never corrected afterwards ──
CREATE TABLE desk.dismissal (
  environment_key text NOT NULL,
  donation_id text NOT NULL CHECK (length(donation_id) BETWEEN 1 AND 200),
  reason text NOT NULL CHECK (length(btrim(reason)) > 0),
  dismissed_by text NOT NULL DEFAULT session_user,
  computer text NOT NULL DEFAULT '',
  dismissed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_key, donation_id)
);
CREATE TRIGGER dismissal_no_change BEFORE UPDATE OR DELETE ON desk.dismissal
  FOR EACH ROW EXECUTE FUNCTION desk.refuse_change();
CREATE TRIGGER dismissal_no_truncate BEFORE TRUNCATE ON desk.dismissal
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- Under the same lock as claim_correction, so a dismissal and a claim cannot both go through.
CREATE FUNCTION desk.dismiss(p_environment_key text, p_donation_id text, p_reason text, p_computer text DEFAULT '')
  RETURNS desk.dismissal LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
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
$$;

-- A dismissed donation is closed for the team: no claim to correct it goes through afterwards.
CREATE FUNCTION desk.correction_not_dismissed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
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
$$;
CREATE TRIGGER correction_not_dismissed BEFORE INSERT OR UPDATE ON desk.correction
  FOR EACH ROW EXECUTE FUNCTION desk.correction_not_dismissed();
REVOKE ALL ON desk.sent_bulk, desk.sent_one, desk.dismissal FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.publish_bulk(text, text, text, integer, timestamptz, jsonb, text, jsonb, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.publish_one(text, text, text, timestamptz, text) FROM PUBLIC;
GRANT SELECT ON desk.sent_bulk, desk.sent_one, desk.dismissal TO desk_preparer;
REVOKE ALL ON FUNCTION desk.dismiss(text, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.dismiss(text, text, text, text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.publish_bulk(text, text, text, integer, timestamptz, jsonb, text, jsonb, text) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.publish_one(text, text, text, timestamptz, text) TO desk_preparer;

-- ── Who sends an approved upload: its preparer (as before) or the approver who approved it ──
-- (issue 14, "by the preparer or the approver, as the team chooses"). The choice in force at
-- submission is kept on the upload; an upload no one had to approve is sent by its preparer.
ALTER TABLE desk.team_rule ADD COLUMN sender text NOT NULL DEFAULT 'preparer'
  CHECK (sender IN ('preparer', 'approver'));
GRANT UPDATE (sender) ON desk.team_rule TO desk_admin;
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
ALTER TABLE desk.upload ADD COLUMN sender text NOT NULL DEFAULT 'preparer'
  CHECK (sender IN ('preparer', 'approver'));

-- The computer that sent it (with sent_by): the only one that may ask to send it again.
ALTER TABLE desk.upload ADD COLUMN sent_from text;
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
    OR (OLD.state = 'approved' AND NEW.state IN ('void', 'sent'))) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('An upload that is %s cannot become %s.', OLD.state, NEW.state);
  END IF;
  RETURN NEW;
END
$$;

-- The exact gzip part files of an upload the approver sends, stored by its preparer's computer with
-- the submission. The database hashes the bytes itself (a client cannot name a hash), and keeps them.
CREATE TABLE desk.upload_file (
  upload_id text NOT NULL REFERENCES desk.upload (id),
  part integer NOT NULL CHECK (part >= 0 AND part < 10000),
  bytes bytea NOT NULL CHECK (octet_length(bytes) > 0),
  sha256 text NOT NULL,
  stored_by text NOT NULL DEFAULT session_user,
  stored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (upload_id, part)
);
CREATE FUNCTION desk.upload_file_stamped() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  NEW.sha256 := encode(sha256(NEW.bytes), 'hex');
  NEW.stored_by := session_user;
  NEW.stored_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER upload_file_stamped BEFORE INSERT ON desk.upload_file
  FOR EACH ROW EXECUTE FUNCTION desk.upload_file_stamped();
CREATE TRIGGER upload_file_no_change BEFORE UPDATE OR DELETE ON desk.upload_file
  FOR EACH ROW EXECUTE FUNCTION desk.refuse_change();
CREATE TRIGGER upload_file_no_truncate BEFORE TRUNCATE ON desk.upload_file
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- Whether the stored parts are exactly the file submitted: every part 0…n-1, and their hashes give
-- the upload's file_sha256 by the rule of bulkFileSha256 (one part: its hash; several: the hash of
-- their hashes joined by a line feed, in part order).
CREATE FUNCTION desk.upload_file_matches(u desk.upload) RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp STABLE AS $$
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
    SELECT encode(sha256(convert_to(string_agg(f.sha256, E'\n' ORDER BY f.part), 'UTF8')), 'hex') INTO h
    FROM desk.upload_file f WHERE f.upload_id = u.id;
  END IF;
  RETURN h = u.file_sha256;
END
$$;
CREATE FUNCTION desk.store_upload_file(p_upload text, p_part integer, p_bytes bytea)
  RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
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
$$;

-- The approver who approved an upload they send reads its parts, and only they (or a desk admin).
CREATE FUNCTION desk.fetch_upload_file(p_upload text, p_part integer)
  RETURNS TABLE (part integer, bytes bytea, sha256 text) LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
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
$$;

-- Approving an upload the approver sends needs its exact file stored first.
CREATE OR REPLACE FUNCTION desk.decide(p_upload text, p_decision text, p_sha256 text, p_reason text,
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
$$;

-- Sent once, by one computer: the preparer's, or the approver's when the rule said so at submission.
-- Asked again, only the login and computer that sent it are answered; anyone else is told who did.
CREATE OR REPLACE FUNCTION desk.mark_sent(p_upload text, p_sha256 text, p_computer text DEFAULT '')
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
$$;
REVOKE ALL ON desk.upload_file FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.upload_file_matches(desk.upload) FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.store_upload_file(text, integer, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.fetch_upload_file(text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.upload_file_stamped() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.store_upload_file(text, integer, bytea) TO desk_preparer;
GRANT EXECUTE ON FUNCTION desk.fetch_upload_file(text, integer) TO desk_approver;
