-- Summary: donation indexes ordered by state, then first seen
-- Version 5: indexes a refresh can update in order (the issue 13 refresh figure).
-- Released: never edit it; a later file changes what it did.

-- A refresh changes the state of many donations of one upload at once. An index ordered by
-- state then amount (donation_totals, and donation_bulk of version 3) takes each changed entry
-- out of and back into a random place, so nearly every page of it is rewritten and committed:
-- measured, half of a 100,000-donation refresh. Ordered by state then first seen (then the
-- rowid every index ends with), the entries of donations recorded together move as a run of a
-- few pages. The totals these indexes once covered come from donation_sum since version 3.
DROP INDEX donation_totals;
DROP INDEX donation_bulk;
-- One upload: its pages per state in the order first seen, and its counts per state.
CREATE INDEX donation_bulk ON donation (environment, bulk_id, status, first_seen_at);
-- Every upload: the pages of one state in the order first seen, its count, the declined ones.
CREATE INDEX donation_status ON donation (environment, status, first_seen_at);
