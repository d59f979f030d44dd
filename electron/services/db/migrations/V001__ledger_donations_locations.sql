-- Summary: ledger, donations, locations
-- Version 1: the upload ledger, donations and the locations register.
-- Released: never edit it; a later file changes what it did.

-- Which legacy JSON files were imported (one row per source, written in the import's transaction).
CREATE TABLE imported (
  source TEXT PRIMARY KEY,
  at TEXT NOT NULL,
  detail TEXT NOT NULL
);

-- Who may send uploads from this data folder: one holder at a time (see ledgerLease.ts).
CREATE TABLE lease (
  name TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  token TEXT NOT NULL,
  taken_at TEXT NOT NULL
);

-- The upload ledger: one row per upload (group) and per bulk intent attempt, the record as JSON.
CREATE TABLE ledger_group (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  environment TEXT NOT NULL,
  corrects TEXT,
  body TEXT NOT NULL
);
CREATE INDEX ledger_group_created ON ledger_group (created_at);
CREATE TABLE ledger_intent (
  attempt_id TEXT PRIMARY KEY,
  service_id TEXT,
  group_id TEXT NOT NULL,
  part INTEGER NOT NULL,
  state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX ledger_intent_service ON ledger_intent (service_id);
CREATE INDEX ledger_intent_group ON ledger_intent (group_id, part);
CREATE INDEX ledger_intent_created ON ledger_intent (created_at);

-- Every donation seen, per environment, with the columns Reconcile filters, sorts and sums on.
CREATE TABLE donation (
  environment TEXT NOT NULL,
  id TEXT NOT NULL,
  bulk_id TEXT,
  status TEXT NOT NULL,
  status_updated TEXT,
  amount INTEGER,
  currency TEXT,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  replaces TEXT,
  resolution_kind TEXT,
  resource TEXT NOT NULL,
  history TEXT NOT NULL,
  row TEXT,
  resolution TEXT,
  PRIMARY KEY (environment, id)
);
-- A rowid table: a row (about 1 KB of JSON) fits in its leaf page; WITHOUT ROWID would spill
-- rows over about 1,000 bytes to overflow pages (measured: 2 to 10 times slower).
-- With the status, it answers which bulks still have open donations without reading rows.
CREATE INDEX donation_bulk ON donation (environment, bulk_id, status, id);
CREATE INDEX donation_replaces ON donation (environment, replaces) WHERE replaces IS NOT NULL;
CREATE INDEX donation_first_seen ON donation (environment, first_seen_at, id);
-- Covers the totals per status and currency (summed from the index, never the JSON), and
-- the status filter.
CREATE INDEX donation_totals ON donation (environment, status, currency, amount);

CREATE TABLE donation_refresh (
  environment TEXT PRIMARY KEY,
  last_refresh_at TEXT
);

-- Single donations from the form: written before the POST, the id added once the service answers.
CREATE TABLE single_attempt (
  environment TEXT NOT NULL,
  client_ref TEXT NOT NULL,
  at TEXT NOT NULL,
  donation_id TEXT,
  PRIMARY KEY (environment, client_ref)
);

-- The locations register: in the order first seen (rowid), the record as JSON.
CREATE TABLE location (
  id TEXT NOT NULL UNIQUE,
  reference_id TEXT,
  seen_at TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX location_reference ON location (reference_id);
CREATE TABLE contact (id TEXT NOT NULL UNIQUE, body TEXT NOT NULL);
CREATE TABLE tag (id TEXT NOT NULL UNIQUE, body TEXT NOT NULL);
