-- Summary: a sealed audit trail (server time and order, a hash chain, each computer's origin bound to its login, the database's decisions written by the database only), every upload's parts stored and checked before approval, a send that never left recorded as not sent, leases kept by their holder, approving only with desk_approver itself
-- Version 3 (issue 18, "The approver approves what goes out"). Released: never edit it; a later
-- file changes what it did. The functions it changes are kept in the repeatable files R__*.sql
-- (R__audit_stamp, R__decide, R__mark_sent, R__upload_files, R__upload_guarded, R__unmark_sent).
--
-- New refusal: DD012 the audit trail refuses an entry (another login's origin, an action that only
-- the database writes, an entry without its computer's origin).

-- ── Approving needs desk_approver itself, not desk_admin ──
-- PostgreSQL 12–15 lets a role grant another only while a member of it, so desk_admin stays a
-- member of desk_approver WITH ADMIN OPTION (it grants the role to people); the desk's functions
-- count that membership as approving only when it does not come through desk_admin.
CREATE FUNCTION desk.approves(p_login text) RETURNS boolean LANGUAGE sql STABLE
  SET search_path = pg_catalog, pg_temp AS $$
  WITH RECURSIVE held(oid, name) AS (
    SELECT r.oid, r.rolname::text FROM pg_roles r WHERE r.rolname = p_login
    UNION
    SELECT m.roleid, g.rolname::text FROM pg_auth_members m
      JOIN held h ON m.member = h.oid
      JOIN pg_roles g ON g.oid = m.roleid
    WHERE h.name <> 'desk_admin')
  SELECT EXISTS (SELECT 1 FROM held WHERE name = 'desk_approver')
$$;
REVOKE ALL ON FUNCTION desk.approves(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.approves(text) TO desk_preparer;

-- ── Follow leases: changed only by the login that holds them (or a desk admin) ──
-- An expired lease may be taken over by anyone (that is what a lease is); a live one only renewed
-- or given up by its login. The table's owner (the desk's functions) is not bound by the policies.
ALTER TABLE desk.follow_lease ENABLE ROW LEVEL SECURITY;
CREATE POLICY lease_read ON desk.follow_lease FOR SELECT USING (true);
CREATE POLICY lease_take ON desk.follow_lease FOR INSERT
  WITH CHECK (login = session_user);
CREATE POLICY lease_renew ON desk.follow_lease FOR UPDATE
  USING (login = session_user OR until < now() OR pg_has_role(session_user, 'desk_admin', 'MEMBER'))
  WITH CHECK (login = session_user OR pg_has_role(session_user, 'desk_admin', 'MEMBER'));
CREATE POLICY lease_give_up ON desk.follow_lease FOR DELETE
  USING (login = session_user OR pg_has_role(session_user, 'desk_admin', 'MEMBER'));

-- ── The audit trail: sealed by the database ──
-- Each entry's time, order and person are the server's; what the computer said the time was stays
-- beside it (reported_at). Each entry carries the SHA-256 of its content and of the entry before
-- it (prev_seq names that entry), computed here under a lock on the chain's head, so an entry
-- changed or removed afterwards, even by a superuser, no longer matches (desk.verify_audit()).
ALTER TABLE desk.audit ADD COLUMN reported_at timestamptz;
ALTER TABLE desk.audit ADD COLUMN prev_seq bigint;
ALTER TABLE desk.audit ADD COLUMN hash text;
ALTER TABLE desk.audit ALTER COLUMN seq DROP IDENTITY;

CREATE TABLE desk.audit_head (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  seq bigint NOT NULL,
  hash text NOT NULL
);
CREATE TRIGGER audit_head_no_truncate BEFORE TRUNCATE ON desk.audit_head
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- Each computer's origin (a data folder's id) belongs to the login that first wrote under it.
CREATE TABLE desk.audit_origin (
  origin text PRIMARY KEY,
  login text NOT NULL,
  first_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TRIGGER audit_origin_no_change BEFORE UPDATE OR DELETE ON desk.audit_origin
  FOR EACH ROW EXECUTE FUNCTION desk.refuse_change();
CREATE TRIGGER audit_origin_no_truncate BEFORE TRUNCATE ON desk.audit_origin
  FOR EACH STATEMENT EXECUTE FUNCTION desk.refuse_change();

-- The canonical text of an entry (a JSON array of its columns, times in UTC to the microsecond)
-- followed by the previous entry's hash; the genesis "previous hash" is 64 zeros.
CREATE FUNCTION desk.audit_entry_hash(a desk.audit, p_prev text) RETURNS text LANGUAGE sql STABLE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    a.seq, a.prev_seq,
    to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    to_char(a.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    to_char(a.reported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    a.person, a.computer, a.environment, a.action, a.workspace_id, a.upload_id, a.donation_id,
    a.details, a.origin, a.origin_seq)::text || E'\n' || coalesce(p_prev, ''), 'UTF8')), 'hex')
$$;

-- The entries written before this version are sealed now, in their order (their times stay as
-- they were written; from now on the server's).
ALTER TABLE desk.audit DISABLE TRIGGER audit_no_change;
DO $$
DECLARE
  a desk.audit;
  prev text := repeat('0', 64);
  prev_seq bigint := NULL;
BEGIN
  FOR a IN SELECT * FROM desk.audit ORDER BY seq LOOP
    a.prev_seq := prev_seq;
    a.hash := desk.audit_entry_hash(a, prev);
    UPDATE desk.audit SET prev_seq = a.prev_seq, hash = a.hash WHERE seq = a.seq;
    prev := a.hash;
    prev_seq := a.seq;
  END LOOP;
  INSERT INTO desk.audit_head (id, seq, hash) VALUES (true, coalesce(prev_seq, 0), prev);
END
$$;
ALTER TABLE desk.audit ENABLE TRIGGER audit_no_change;
ALTER TABLE desk.audit ALTER COLUMN hash SET NOT NULL;
INSERT INTO desk.audit_origin (origin, login, first_at)
SELECT DISTINCT ON (origin) origin, person, recorded_at FROM desk.audit
WHERE origin NOT IN ('', 'team-database') ORDER BY origin, seq;

-- Runs after audit_stamp (trigger order is by name), as the schema's owner: binds the origin,
-- takes the next number and the time under the head's lock, and seals the entry.
CREATE FUNCTION desk.audit_sealed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  h desk.audit_head;
  bound text;
BEGIN
  IF NEW.origin <> 'team-database' THEN
    INSERT INTO desk.audit_origin (origin, login) VALUES (NEW.origin, session_user)
      ON CONFLICT (origin) DO NOTHING;
    SELECT o.login INTO bound FROM desk.audit_origin o WHERE o.origin = NEW.origin;
    IF bound IS DISTINCT FROM session_user THEN
      RAISE EXCEPTION USING ERRCODE = 'DD012',
        MESSAGE = format('The entries of %s are written by %s''s computer only: this login (%s) cannot write under it.',
          NEW.origin, bound, session_user);
    END IF;
  END IF;
  SELECT * INTO h FROM desk.audit_head WHERE id FOR UPDATE;
  NEW.seq := h.seq + 1;
  NEW.prev_seq := CASE WHEN h.seq = 0 THEN NULL ELSE h.seq END;
  NEW.at := clock_timestamp();
  NEW.recorded_at := NEW.at;
  NEW.person := session_user;
  NEW.hash := desk.audit_entry_hash(NEW, h.hash);
  UPDATE desk.audit_head SET seq = NEW.seq, hash = NEW.hash WHERE id;
  RETURN NEW;
END
$$;
CREATE TRIGGER audit_stamp_sealed BEFORE INSERT ON desk.audit
  FOR EACH ROW EXECUTE FUNCTION desk.audit_sealed();

-- Recomputes the whole chain: one row, whole or the first entry that does not hold and why.
CREATE FUNCTION desk.verify_audit()
  RETURNS TABLE (whole boolean, entries bigint, first_broken_seq bigint, first_broken_at timestamptz, reason text)
  LANGUAGE plpgsql SECURITY DEFINER STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  h desk.audit_head;
  a desk.audit;
  prev text := repeat('0', 64);
  prev_seq bigint := NULL;
  n bigint := 0;
BEGIN
  -- The head first: entries written meanwhile are past it and left for the next check.
  SELECT * INTO h FROM desk.audit_head WHERE id;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, 0::bigint, NULL::bigint, NULL::timestamptz,
      'The trail''s head (its last seal) is missing: the trail was tampered with.'::text;
    RETURN;
  END IF;
  FOR a IN SELECT * FROM desk.audit WHERE seq <= h.seq ORDER BY seq LOOP
    n := n + 1;
    IF a.prev_seq IS DISTINCT FROM prev_seq THEN
      RETURN QUERY SELECT false, n, a.seq, a.at, CASE
        WHEN prev_seq IS NULL THEN format('Entry %s follows entry %s, which is no longer in the trail: entries were removed.', a.seq, a.prev_seq)
        WHEN a.prev_seq IS NULL OR a.prev_seq > prev_seq THEN format('Entry %s follows entry %s, which is no longer in the trail: entries were removed.', a.seq, coalesce(a.prev_seq::text, 'none'))
        ELSE format('Entry %s does not follow entry %s as it was written: the trail was rearranged.', a.seq, prev_seq) END;
      RETURN;
    END IF;
    IF a.hash IS DISTINCT FROM desk.audit_entry_hash(a, prev) THEN
      RETURN QUERY SELECT false, n, a.seq, a.at,
        format('Entry %s no longer matches its seal: it was changed after it was written.', a.seq);
      RETURN;
    END IF;
    prev := a.hash;
    prev_seq := a.seq;
  END LOOP;
  IF h.seq <> coalesce(prev_seq, 0) OR h.hash <> prev THEN
    RETURN QUERY SELECT false, n, h.seq, NULL::timestamptz,
      format('The trail ends at entry %s, but entry %s was written: the last entries were removed.',
        coalesce(prev_seq::text, 'none'), h.seq);
    RETURN;
  END IF;
  RETURN QUERY SELECT true, n, NULL::bigint, NULL::timestamptz, NULL::text;
END
$$;
REVOKE ALL ON desk.audit_head, desk.audit_origin FROM PUBLIC;
GRANT SELECT ON desk.audit_origin TO desk_preparer;
REVOKE ALL ON FUNCTION desk.audit_entry_hash(desk.audit, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.audit_sealed() FROM PUBLIC;
REVOKE ALL ON FUNCTION desk.verify_audit() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.verify_audit() TO desk_preparer;

-- ── A send that stopped before any byte reached the service ──
-- desk.unmark_sent (R__unmark_sent.sql) records it, and gives the upload's rows back once.
CREATE FUNCTION desk.unmark_sent(p_upload text, p_reason text, p_computer text DEFAULT '')
  RETURNS desk.upload LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RAISE EXCEPTION 'desk.unmark_sent is defined in R__unmark_sent.sql';
END
$$;
REVOKE ALL ON FUNCTION desk.unmark_sent(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.unmark_sent(text, text, text) TO desk_preparer;

-- The preparer may now store the parts of every upload (not only those the approver sends), and
-- the preparer, any approver and a desk admin may read them (R__upload_files.sql).
GRANT EXECUTE ON FUNCTION desk.fetch_upload_file(text, integer) TO desk_preparer;
