-- desk.decide: re-applied whenever this file changes (CREATE OR REPLACE keeps its owner and grants).
-- Approving needs the desk_approver role itself (desk_admin alone does not approve), and the
-- upload's exact file stored and hashed here first, whoever sends it.
CREATE OR REPLACE FUNCTION desk.decide(p_upload text, p_decision text, p_sha256 text, p_reason text,
  p_computer text DEFAULT '') RETURNS desk.upload LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  u desk.upload;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
BEGIN
  IF p_decision IS NULL OR p_decision NOT IN ('approve', 'reject') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD009', MESSAGE = 'The decision is either approve or reject.';
  END IF;
  IF NOT desk.approves(session_user) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002',
      MESSAGE = 'Only a person with the approver role may approve or reject uploads (a desk admin approves only when also granted desk_approver).';
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
  IF p_decision = 'approve' AND NOT desk.upload_file_matches(u) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = format('The file stored with this upload is not (or not yet) the one submitted (SHA-256 %s): it cannot be approved. Try again in a moment; if it stays so, reject it and ask %s to upload again.',
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
