-- desk.mark_sent: re-applied whenever this file changes (CREATE OR REPLACE keeps its owner and grants).
-- Sent once, by one computer: the preparer's, or the approver's when the rule said so at submission.
-- Asked again, only the login and computer that sent it are answered; anyone else is told who did.
-- Marked only when the approved file stored here is whole: the computer that sends sends those bytes.
CREATE OR REPLACE FUNCTION desk.mark_sent(p_upload text, p_sha256 text, p_computer text DEFAULT '')
  RETURNS desk.upload LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  u desk.upload;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.preparer <> session_user AND NOT desk.approves(session_user) THEN
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
  -- Whoever sends, what leaves is the stored file, checked here: without it nothing is marked sent.
  IF NOT desk.upload_file_matches(u) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD003',
      MESSAGE = 'The file stored with this upload is not the one approved: it is not sent.';
  END IF;
  UPDATE desk.upload SET state = 'sent', sent_by = session_user, sent_at = now(), sent_from = coalesce(p_computer, '')
  WHERE id = p_upload RETURNING * INTO u;
  PERFORM desk.record(u, 'send', 'approved', NULL, p_computer, NULL);
  RETURN u;
END
$$;
