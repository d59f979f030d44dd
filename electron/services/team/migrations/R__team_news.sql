-- desk.news_*: re-applied whenever this file changes. The team's news, told at once to every
-- computer listening (LISTEN desk_news): an upload submitted, decided (approved, rejected), voided
-- or sent, and a bulk a colleague's computer sent or followed. A notification goes out when the
-- change commits, and says only what changed and which upload (its id and a kind, nothing a desk
-- role may not read); each computer then reads what it needs as it did before. Polling stays the
-- fallback: a computer that was not listening reads the same on its next round.
CREATE OR REPLACE FUNCTION desk.news_upload() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('desk_news', json_build_object('kind', 'submitted', 'upload', NEW.id)::text);
  ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
    PERFORM pg_notify('desk_news', json_build_object('kind', NEW.state, 'upload', NEW.id)::text);
  END IF;
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION desk.news_bulk() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.state IS DISTINCT FROM OLD.state OR NEW.taken_totals IS DISTINCT FROM OLD.taken_totals THEN
    PERFORM pg_notify('desk_news', json_build_object('kind', 'bulk', 'upload', NEW.upload_id)::text);
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS upload_news ON desk.upload;
CREATE TRIGGER upload_news AFTER INSERT OR UPDATE ON desk.upload
  FOR EACH ROW EXECUTE FUNCTION desk.news_upload();
DROP TRIGGER IF EXISTS sent_bulk_news ON desk.sent_bulk;
CREATE TRIGGER sent_bulk_news AFTER INSERT OR UPDATE ON desk.sent_bulk
  FOR EACH ROW EXECUTE FUNCTION desk.news_bulk();
