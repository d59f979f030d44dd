-- Summary: donation indexes for Reconcile pages and the month report
-- Version 3: donation indexes and running sums for Reconcile pages and the month report.
-- Released: never edit it; a later file changes what it did.

-- What the app's own metadata says a donation is: 'replaces' (a correction, linked or carrying
-- the app's pair) or 'single' (from the form); null otherwise. Kept as a column so the month
-- report sums from an index instead of reading every row's JSON.
ALTER TABLE donation ADD COLUMN mark TEXT;
UPDATE donation SET mark = CASE
  WHEN replaces IS NOT NULL OR json_extract(resource, '$.attributes.metadata.ddReplaces') IS NOT NULL
    THEN 'replaces'
  WHEN json_extract(resource, '$.attributes.metadata.ddSingle') IS NOT NULL THEN 'single'
  END;
-- Per bulk: which are open, and every per-upload and month-end total, from the index alone.
DROP INDEX donation_bulk;
CREATE INDEX donation_bulk
  ON donation (environment, bulk_id, status, currency, amount, resolution_kind, mark);
-- Pages in the order first seen, then as recorded (the rowid every index ends with): the
-- service's own order within a page. Per bulk (or of those sent one by one) too, without
-- sorting. Neither column changes after the first write, so a refresh never touches these.
DROP INDEX donation_first_seen;
CREATE INDEX donation_first_seen ON donation (environment, first_seen_at);
CREATE INDEX donation_bulk_seen ON donation (environment, bulk_id, first_seen_at);

-- Count and sum per bulk ('' for none), status, currency, mark ('' for none) and whether a
-- declined one is open, kept by the donation store in the transaction that writes the
-- donations (see writeDonation; triggers cost a refresh about 30 µs a row): the totals, the
-- control totals, the month-end report and which bulks are open read a few rows instead of
-- every donation's index entry.
CREATE TABLE donation_sum (
  environment TEXT NOT NULL,
  bulk_id TEXT NOT NULL,
  status TEXT NOT NULL,
  currency TEXT NOT NULL,
  mark TEXT NOT NULL,
  open INTEGER NOT NULL,
  n INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  PRIMARY KEY (environment, bulk_id, status, currency, mark, open)
) WITHOUT ROWID;
INSERT INTO donation_sum
  SELECT environment, coalesce(bulk_id, ''), status, coalesce(currency, ''), coalesce(mark, ''),
    status = 'DECLINED' AND (resolution_kind IS NULL OR resolution_kind = 'replacing'),
    count(*), coalesce(sum(amount), 0)
  FROM donation GROUP BY 1, 2, 3, 4, 5, 6;
