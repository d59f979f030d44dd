import type { PgCluster } from './pgCluster';

/*
 * The reading right the approver's review needs of the team database: any desk_approver may fetch the
 * stored parts of an upload that waits for approval (besides the approver who sends an approved one).
 * The released schema (V002) lets only the approver who approved an upload read its parts, so a
 * review of a waiting upload says "cannot be checked". Until the team schema grants this in a
 * migration of its own, tests of the approver's review install it here, as the database's owner,
 * with the function's signature and grants unchanged.
 */
export const APPROVER_READS_WAITING = `
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
  IF NOT pg_has_role(session_user, 'desk_approver', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'DD002', MESSAGE = 'Only a person with the approver role may fetch an upload''s file.';
  END IF;
  IF NOT (u.state = 'waiting'
     OR (u.sender = 'approver' AND u.state IN ('approved', 'sent')
         AND (u.decided_by = session_user OR pg_has_role(session_user, 'desk_admin', 'MEMBER')))) THEN
    RAISE EXCEPTION USING ERRCODE = 'DD007',
      MESSAGE = format('Only the approver who approved upload %s sends it, and only once it is approved.', p_upload);
  END IF;
  RETURN QUERY SELECT f.part, f.bytes, f.sha256 FROM desk.upload_file f
    WHERE f.upload_id = p_upload AND (p_part IS NULL OR f.part = p_part) ORDER BY f.part;
END
$$;`;

/** Lets approvers read a waiting upload's stored parts (see APPROVER_READS_WAITING). */
export async function letApproversReadWaitingFiles(cluster: Pick<PgCluster, 'query'>): Promise<void> {
  await cluster.query(APPROVER_READS_WAITING);
}
