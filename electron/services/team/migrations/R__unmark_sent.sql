-- desk.unmark_sent: re-applied whenever this file changes (CREATE OR REPLACE keeps its owner and grants).
-- A send that stopped before any byte reached the service (the file to send was not the approved
-- one, or could not be read): the login and computer that marked it sent record it as not sent,
-- with the reason. The upload ends void and its rows are given back, so a genuine upload of them is
-- not refused. Once: asked again by the same login, the answer is the same and nothing more is
-- given back; refused once a bulk of it was recorded (then bytes did reach the service).
CREATE OR REPLACE FUNCTION desk.unmark_sent(p_upload text, p_reason text, p_computer text DEFAULT '')
  RETURNS desk.upload LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  u desk.upload;
  n integer;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
BEGIN
  IF v_reason IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'DD006', MESSAGE = 'Say why nothing was sent: a reason is required.';
  END IF;
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.sent_by IS DISTINCT FROM session_user OR coalesce(u.sent_from, '') <> coalesce(p_computer, '') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = CASE WHEN u.sent_by IS NULL THEN 'This upload was never marked sent: there is nothing to take back.'
        ELSE format('Only %s, from %s, who marked this upload sent, may record that nothing was sent.', u.sent_by,
          coalesce(nullif(u.sent_from, ''), 'their computer')) END;
  END IF;
  IF u.state = 'void' AND EXISTS (SELECT 1 FROM desk.approval_event e WHERE e.upload_id = p_upload AND e.action = 'not-sent') THEN
    RETURN u;
  END IF;
  IF u.state <> 'sent' THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = format('This upload is %s: only a sent upload can be recorded as not sent.', u.state);
  END IF;
  IF EXISTS (SELECT 1 FROM desk.sent_bulk b WHERE b.upload_id = p_upload) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD005',
      MESSAGE = 'A bulk of this upload reached the service: it stays sent (give back only the rows the service refused).';
  END IF;
  UPDATE desk.upload SET state = 'void', reason = 'Not sent: ' || v_reason WHERE id = p_upload RETURNING * INTO u;
  UPDATE desk.sent_row SET released_at = now() WHERE upload_id = p_upload AND released_at IS NULL;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM desk.abandon_upload_corrections(p_upload, p_computer);
  PERFORM desk.record(u, 'not-sent', 'sent', v_reason, p_computer, jsonb_build_object('releasedRows', n));
  RETURN u;
END
$$;
