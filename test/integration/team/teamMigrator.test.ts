import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import { loadMigrations, type MigrationSource } from '../../../electron/services/db/migrationRunner';
import { splitStatements } from '../../../electron/services/db/sqlText';
import { initTeamDatabase } from '../../../electron/services/team/teamInit';
import { applyTeamMigrations } from '../../../electron/services/team/teamMigrator';
import { TEAM_MIGRATIONS } from '../../../electron/services/team/teamSchema';
import { startPgCluster, type PgCluster } from '../../support/pgCluster';

/* The migration runner on PostgreSQL: each case on a database of its own in one real cluster. */

const V1 = {
  name: 'V001__things.sql',
  text: `-- Summary: things
CREATE SCHEMA desk;
CREATE TABLE desk.schema_version (version integer PRIMARY KEY, summary text NOT NULL);
CREATE TABLE desk.thing (id integer PRIMARY KEY, name text);
`,
};
const V2 = {
  name: 'V002__notes.sql',
  text: '-- Summary: notes\nALTER TABLE desk.thing ADD COLUMN note text;\n',
};
const R = {
  name: 'R__thing_count.sql',
  text: 'CREATE OR REPLACE FUNCTION desk.thing_count() RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM desk.thing $$;\n',
};

let cluster: PgCluster;
let n = 0;

beforeAll(async () => {
  cluster = await startPgCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

async function database(): Promise<pg.Client> {
  const name = `case_${++n}`;
  await cluster.query(`CREATE DATABASE ${name}`);
  const client = new pg.Client({ connectionString: cluster.url(undefined, undefined, name) });
  await client.connect();
  return client;
}

async function migrate(client: pg.Client, files: MigrationSource[]): Promise<string[]> {
  await client.query('BEGIN');
  try {
    const statements = await applyTeamMigrations(client, loadMigrations(files), 'The test database');
    await client.query('COMMIT');
    return statements;
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}

const history = async (client: pg.Client) =>
  (await client.query('SELECT name, version, how FROM desk.schema_history ORDER BY name')).rows;

describe('the migration runner on PostgreSQL', () => {
  it('applies the files in order, records them with the old version rows, and does nothing the second time', async () => {
    const client = await database();
    try {
      const statements = await migrate(client, [R, V2, V1]);
      expect(statements[0]).toBe('-- Summary: things\nCREATE SCHEMA desk');
      expect(await history(client)).toEqual([
        { name: 'R__thing_count.sql', version: null, how: 'applied' },
        { name: 'V001__things.sql', version: 1, how: 'applied' },
        { name: 'V002__notes.sql', version: 2, how: 'applied' },
      ]);
      const versions = await client.query('SELECT version, summary FROM desk.schema_version ORDER BY 1');
      expect(versions.rows).toEqual([
        { version: 1, summary: 'things' },
        { version: 2, summary: 'notes' },
      ]);
      expect(await migrate(client, [V1, V2, R])).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('applies a repeatable file again when its text changes', async () => {
    const client = await database();
    try {
      await migrate(client, [V1, R]);
      await client.query("INSERT INTO desk.thing VALUES (1, 'a'), (2, 'b')");
      const doubled = { ...R, text: R.text.replace('count(*)', '2 * count(*)') };
      const statements = await migrate(client, [V1, doubled]);
      expect(statements[0]).toContain('2 * count(*)');
      expect((await client.query('SELECT desk.thing_count() AS n')).rows[0]).toEqual({ n: '4' });
    } finally {
      await client.end();
    }
  });

  it('refuses an edited or renumbered released file, and leaves the database as it was', async () => {
    const client = await database();
    try {
      await migrate(client, [V1, V2]);
      const edited = migrate(client, [V1, { ...V2, text: V2.text.replace('note text', 'note varchar') }]);
      await expect(edited).rejects.toThrow(
        /^The test database: V002__notes\.sql was changed after it was applied/,
      );
      await expect(edited).rejects.toBeInstanceOf(DeskFailure);
      await expect(migrate(client, [V1, { ...V2, name: 'V003__notes.sql' }, R])).rejects.toThrow(
        /V002__notes\.sql was applied to it, but this Donation Desk has no such migration/,
      );
      expect(await history(client)).toEqual([
        { name: 'V001__things.sql', version: 1, how: 'applied' },
        { name: 'V002__notes.sql', version: 2, how: 'applied' },
      ]);
      expect((await client.query("SELECT to_regproc('desk.thing_count') AS f")).rows[0]).toEqual({ f: null });
    } finally {
      await client.end();
    }
  });

  it('refuses a team database whose version 2 was made before version 2 was finished, naming what it lacks', async () => {
    // Version 2 as first committed: the shared ledger only, before the dismissals and the approver
    // sends were added to it the same day. Such a database said 2 and would never have had them.
    const client = await database();
    try {
      const [v1, v2] = TEAM_MIGRATIONS;
      await client.query(v1!.text);
      const early = splitStatements(v2!.text);
      const cut = early.findIndex((s) => s.includes('CREATE TABLE desk.dismissal'));
      for (const sql of early.slice(0, cut)) await client.query(sql);
      await client.query(`INSERT INTO desk.schema_version (version, summary) VALUES (1, 'v1'), (2, 'v2')`);
      const refused = initTeamDatabase(client);
      await expect(refused).rejects.toThrow(
        /^The team database: it says it is at schema version 2, but lacks what V002__shared_ledger_and_approver_sends\.sql and the files before it make \(table:desk\.dismissal, trigger:dismissal_no_change, .*\)\. It was not made by a released Donation Desk; nothing was changed\.$/,
      );
      await expect(refused).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
      const { rows } = await client.query(
        "SELECT to_regclass('desk.schema_history') AS h, to_regclass('desk.upload_file') AS f",
      );
      expect(rows[0]).toEqual({ h: null, f: null });
    } finally {
      await client.end();
    }
  });
});
