/**
 * The database's schema, one migration per version. A migration runs once, inside the transaction
 * that raises `PRAGMA user_version` to its number, so a crash leaves the previous version whole.
 * Never edit a released migration: add the next one.
 */
export interface Migration {
  version: number;
  /** What it changes, for the backup's name and the log. */
  summary: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    summary: 'ledger, donations, locations',
    sql: `
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
    `,
  },

  // ── Version 2: the audit trail (issue 14). Kept in a block of its own. ─────────────────────────
  // Columns and types that PostgreSQL has too (BIGINT, TEXT; `details` becomes jsonb there), so the
  // team database takes the same table; there the insert-only rule is also the grants'.
  {
    version: 2,
    summary: 'audit trail',
    sql: `
      -- Who did what, when, where: written once, never changed or removed (the triggers below).
      CREATE TABLE audit (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        person TEXT NOT NULL,
        computer TEXT NOT NULL,
        environment TEXT NOT NULL,
        action TEXT NOT NULL,
        workspace_id TEXT,
        upload_id TEXT,
        donation_id TEXT,
        details TEXT NOT NULL
      );
      CREATE INDEX audit_at ON audit (at);
      CREATE INDEX audit_workspace ON audit (workspace_id, seq) WHERE workspace_id IS NOT NULL;
      CREATE INDEX audit_upload ON audit (upload_id, seq) WHERE upload_id IS NOT NULL;
      CREATE INDEX audit_donation ON audit (donation_id, seq) WHERE donation_id IS NOT NULL;
      CREATE INDEX audit_person ON audit (person, seq);
      CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
      BEGIN
        SELECT RAISE(ABORT, 'The audit trail is insert-only: its entries cannot be changed.');
      END;
      CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
      BEGIN
        SELECT RAISE(ABORT, 'The audit trail is insert-only: its entries cannot be removed.');
      END;
      -- INSERT OR REPLACE removes the old row without firing DELETE triggers: refuse it up front.
      CREATE TRIGGER audit_no_replace BEFORE INSERT ON audit
      WHEN EXISTS (SELECT 1 FROM audit WHERE seq = NEW.seq)
      BEGIN
        SELECT RAISE(ABORT, 'The audit trail is insert-only: its entries cannot be replaced.');
      END;
    `,
  },

  // ── Version 3: donation indexes and running sums for Reconcile pages and the month report. ──
  {
    version: 3,
    summary: 'donation indexes for Reconcile pages and the month report',
    sql: `
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
    `,
  },

  // ── Version 4: team mode's outbox for the audit trail. ──
  {
    version: 4,
    summary: 'the data folder id and the team audit outbox',
    sql: `
      -- A stable id of this data folder, made once: the origin of its entries in a team's trail.
      CREATE TABLE folder_identity (id TEXT NOT NULL PRIMARY KEY);
      INSERT INTO folder_identity (id) VALUES (lower(hex(randomblob(16))));
      -- Per team database (host:port/database), the last local audit seq copied to its trail. The
      -- audit table itself stays insert-only: what has been pushed is remembered here instead.
      CREATE TABLE team_outbox (server TEXT NOT NULL PRIMARY KEY, pushed_seq INTEGER NOT NULL);
    `,
  },
  // ── Version 5: indexes a refresh can update in order (the issue 13 refresh figure). ─────────────
  {
    version: 5,
    summary: 'donation indexes ordered by state, then first seen',
    sql: `
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
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
