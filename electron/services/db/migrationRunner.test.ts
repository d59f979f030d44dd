import { describe, expect, it } from 'vitest';
import { DatabaseSync } from '@photostructure/sqlite';
import { DeskFailure } from '../../../shared/result';
import { expectedObjects, loadMigrations, planMigrations, type MigrationSource } from './migrationRunner';
import { SQLITE_MIGRATIONS } from './schema';
import { migrateSqlite, sqliteMigrationState, type SqliteConnection } from './sqliteMigrations';
import { splitStatements } from './sqlText';

const V1 = {
  name: 'V001__people.sql',
  text: '-- Summary: people\nCREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);\n',
};
const V2 = {
  name: 'V002__email.sql',
  text: '-- Summary: their email\nALTER TABLE person ADD COLUMN email TEXT;\nCREATE INDEX person_email ON person (email);\n',
};
const R = {
  name: 'R__people_view.sql',
  text: 'DROP VIEW IF EXISTS people;\nCREATE VIEW people AS SELECT name FROM person;\n',
};

const memory = () => new DatabaseSync(':memory:') as unknown as SqliteConnection & { close(): void };
const migrate = (db: SqliteConnection, files: MigrationSource[]) =>
  migrateSqlite(db, loadMigrations(files), 'The test database');
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DeskFailure);
    expect((e as DeskFailure).code).toBe('SCHEMA_MISMATCH');
    return (e as Error).message;
  }
  throw new Error('not refused');
};
const historyOf = (db: SqliteConnection) =>
  db.prepare('SELECT name, version, how FROM schema_history ORDER BY name').all();

describe('splitStatements', () => {
  it('ends statements only at a ; outside comments, strings, identifiers and $ bodies', () => {
    const sql = `-- one; still a comment
CREATE TABLE "a;b" (x text DEFAULT 'it''s; fine');
/* block; */ SELECT E'back\\'slash;', $$ body; $$, $tag$ also; $tag$;
DO $$ BEGIN RAISE NOTICE 'x;'; END $$;
-- trailing comment only`;
    expect(splitStatements(sql)).toEqual([
      `-- one; still a comment\nCREATE TABLE "a;b" (x text DEFAULT 'it''s; fine')`,
      `/* block; */ SELECT E'back\\'slash;', $$ body; $$, $tag$ also; $tag$`,
      `DO $$ BEGIN RAISE NOTICE 'x;'; END $$`,
    ]);
  });
});

describe('the migration runner on SQLite', () => {
  it('applies versioned files in order, then repeatable ones, and records each with its checksum', () => {
    const db = memory();
    const steps = migrate(db, [R, V2, V1]);
    expect(steps.map((s) => `${s.action} ${s.migration.name}`)).toEqual([
      'apply V001__people.sql',
      'apply V002__email.sql',
      'apply R__people_view.sql',
    ]);
    expect(historyOf(db)).toEqual([
      { name: 'R__people_view.sql', version: null, how: 'applied' },
      { name: 'V001__people.sql', version: 1, how: 'applied' },
      { name: 'V002__email.sql', version: 2, how: 'applied' },
    ]);
    expect(sqliteMigrationState(db).legacyVersion).toBe(2);
    expect(migrate(db, [V1, V2, R])).toEqual([]);
    db.close();
  });

  it('applies a repeatable file again when its text changes, and only then', () => {
    const db = memory();
    migrate(db, [V1, R]);
    const changed = { ...R, text: R.text.replace('SELECT name', 'SELECT id, name') };
    expect(migrate(db, [V1, changed]).map((s) => s.migration.name)).toEqual(['R__people_view.sql']);
    expect(db.prepare('SELECT * FROM people').all()).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM pragma_table_info('people')").get()).toEqual({ n: 2 });
    expect(migrate(db, [V1, changed])).toEqual([]);
    db.close();
  });

  it('refuses a released file edited, renumbered or removed, and changes nothing', () => {
    const db = memory();
    migrate(db, [V1, V2]);
    const before = historyOf(db);
    expect(refusal(() => migrate(db, [V1, { ...V2, text: `${V2.text}-- a late fix\n` }]))).toMatch(
      /^The test database: V002__email\.sql was changed after it was applied \(SHA-256 [0-9a-f]{64} then, [0-9a-f]{64} now\)/,
    );
    expect(refusal(() => migrate(db, [V1, { ...V2, name: 'V003__email.sql' }]))).toMatch(
      /V002__email\.sql was applied to it, but this Donation Desk has no such migration: a released migration was removed or renumbered/,
    );
    expect(refusal(() => migrate(db, [V1, { ...V2, name: 'V002__mail.sql' }]))).toMatch(
      /V002__email\.sql was applied to it, but this Donation Desk has V002__mail\.sql as version 2: a released migration was renamed or renumbered/,
    );
    expect(refusal(() => migrate(db, [V1]))).toMatch(/V002__email\.sql .* removed or renumbered/);
    expect(historyOf(db)).toEqual(before);
    db.close();
  });

  it('refuses a file added below the last one applied', () => {
    const db = memory();
    migrate(db, [V1, { ...V2, name: 'V003__email.sql' }]);
    expect(
      refusal(() =>
        migrate(db, [V1, { name: 'V002__late.sql', text: 'SELECT 1;' }, { ...V2, name: 'V003__email.sql' }]),
      ),
    ).toMatch(/V002__late\.sql has not been applied, but version 3 already was/);
    db.close();
  });

  it('refuses file names that are no migration, and two files of one version', () => {
    expect(() => loadMigrations([{ name: 'V1_people.sql', text: '' }])).toThrow(/not a migration file name/);
    expect(() => loadMigrations([V1, { ...V1, name: 'V001__again.sql' }])).toThrow(
      /V001__people\.sql and V001__again\.sql have the same version 1/,
    );
  });

  it('adopts a database made before the history: records what its version says, runs nothing again', () => {
    const db = memory();
    db.exec(V1.text);
    db.exec("INSERT INTO person (name) VALUES ('Ana')");
    db.exec('PRAGMA user_version = 1');
    const steps = migrate(db, [V1, V2]);
    expect(steps.map((s) => `${s.action} ${s.migration.name}`)).toEqual([
      'adopt V001__people.sql',
      'apply V002__email.sql',
    ]);
    expect(historyOf(db)).toEqual([
      { name: 'V001__people.sql', version: 1, how: 'adopted' },
      { name: 'V002__email.sql', version: 2, how: 'applied' },
    ]);
    expect(db.prepare('SELECT id, name, email FROM person').all()).toEqual([
      { id: 1, name: 'Ana', email: null },
    ]);
    db.close();
  });

  it('refuses to adopt a database that lacks what its version says it has, and changes nothing', () => {
    const db = memory();
    db.exec(V1.text);
    db.exec('PRAGMA user_version = 2');
    expect(refusal(() => migrate(db, [V1, V2]))).toBe(
      'The test database: it says it is at schema version 2, but lacks what V002__email.sql and the files before it make (column:person.email, index:person_email). It was not made by a released Donation Desk; nothing was changed.',
    );
    expect(sqliteMigrationState(db)).toEqual({ history: null, legacyVersion: 2 });
    db.close();
  });

  it('finds what the data folder schema leaves behind, dropped indexes taken out', () => {
    const objects = expectedObjects(SQLITE_MIGRATIONS);
    expect(objects).toContain('index:donation_status');
    expect(objects).toContain('index:donation_bulk');
    expect(objects).toContain('column:donation.mark');
    expect(objects).toContain('trigger:audit_no_replace');
    expect(objects).not.toContain('index:donation_totals');
  });

  it('adopts a repeatable file only when the adopted files already ran it word for word', () => {
    const body = 'CREATE VIEW people AS SELECT name FROM person';
    const v2 = { name: 'V002__view.sql', text: `-- Summary: the view\n${body};\n` };
    const r = { name: 'R__people.sql', text: `-- kept here from now on\n${body};\n` };
    const plan = (legacyVersion: number) =>
      planMigrations(loadMigrations([V1, v2, r]), { history: null, legacyVersion }, 'x').map(
        (s) => `${s.action} ${s.migration.name}`,
      );
    expect(plan(2)).toEqual(['adopt V001__people.sql', 'adopt V002__view.sql', 'adopt R__people.sql']);
    expect(plan(1)).toEqual(['adopt V001__people.sql', 'apply V002__view.sql', 'apply R__people.sql']);
    expect(plan(0)).toEqual(['apply V001__people.sql', 'apply V002__view.sql', 'apply R__people.sql']);
  });

  it('plans nothing for a database the files made, whatever its version marker says', () => {
    const migrations = loadMigrations([V1, V2]);
    const history = migrations.map((m) => ({ name: m.name, version: m.version, checksum: m.checksum }));
    expect(planMigrations(migrations, { history, legacyVersion: 0 }, 'x')).toEqual([]);
  });
});
