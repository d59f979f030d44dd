-- desk.store_upload_file, desk.fetch_upload_file: re-applied whenever this file changes (CREATE OR
-- REPLACE keeps their owner and grants).
-- The exact gzip part files of every upload, stored by its preparer's computer with the submission
-- (whoever sends it): the database hashes the bytes itself and keeps them, an approval needs them
-- whole (desk.decide), and the computer that sends sends them (desk.mark_sent checks them again).
CREATE OR REPLACE FUNCTION desk.store_upload_file(p_upload text, p_part integer, p_bytes bytea)
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

-- Read by the upload's preparer (whose computer sends it, by default), by approvers (who review
-- the file itself, and send it when the team's rule says so) and by a desk admin.
CREATE OR REPLACE FUNCTION desk.fetch_upload_file(p_upload text, p_part integer)
  RETURNS TABLE (part integer, bytes bytea, sha256 text) LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
DECLARE
  u desk.upload;
BEGIN
  SELECT * INTO u FROM desk.upload WHERE id = p_upload;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'DD004', MESSAGE = format('There is no upload %s on the team database.', p_upload);
  END IF;
  IF u.preparer <> session_user AND NOT desk.approves(session_user)
     AND NOT pg_has_role(session_user, 'desk_admin', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002',
      MESSAGE = format('Only %s, who prepared upload %s, an approver or a desk admin may read its file.', u.preparer, p_upload);
  END IF;
  RETURN QUERY SELECT f.part, f.bytes, f.sha256 FROM desk.upload_file f
    WHERE f.upload_id = p_upload AND (p_part IS NULL OR f.part = p_part) ORDER BY f.part;
END
$$;
