import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DeskFailure } from '../../../shared/result';
import { BACKUP_FOLDER, DATABASE_FILE, DeskDatabase } from '../../services/db/deskDatabase';
import { initTeam } from './teamInit';
import { EXIT, exitCodeFor } from '../exitCodes';
import { commandArgs, registerCommand, type CliContext } from '../main';

const USAGE = `donation-desk db check [--json]
donation-desk db backup [--out FILE] [--json]
donation-desk db init-team [--url postgres://ADMIN@HOST:5432/DATABASE] [--json]

  check          read every page of the data folder's database (desk.db) and report damage
  backup         copy the database while the app may be using it, to FILE (default:
                 backups/desk-<date and time>.db in the data folder)
  init-team      set up an empty PostgreSQL database as the team's shared database: the desk schema,
                 the roles desk_preparer, desk_approver and desk_admin, their grants, and the rules the
                 database enforces; prints the SQL it ran. Run by the team's admin with a superuser
                 login (or one with CREATEROLE that owns the database); --url defaults to
                 DONATION_DESK_DATABASE_URL. Running it again brings the schema up to date, or says
                 it already is.

The database holds the upload ledger, every donation seen with its history, corrections, single
donations and the locations register. Both work while the app is open on the same data folder.
To restore a backup: close the app and every command, then copy the backup over desk.db (and delete
desk.db-wal and desk.db-shm beside it).
Exit codes: 0 whole / written / set up; 1 the database is damaged (the message names the backup to
restore); 2 the arguments cannot be used, the folder has no database yet, or the login may not set up
a team database; 3 the team database cannot be reached or refused the login.`;

function openExisting(ctx: CliContext): DeskDatabase {
  const path = join(ctx.dataDir, DATABASE_FILE);
  if (!existsSync(path) && !existsSync(join(ctx.dataDir, `${DATABASE_FILE}.created`))) {
    throw new DeskFailure(
      'NO_DATABASE',
      `There is no database in ${ctx.dataDir} yet: it is made the first time the app or a command uses this folder.`,
    );
  }
  return DeskDatabase.open(ctx.dataDir);
}

function failed(ctx: CliContext, e: unknown): number {
  if (!(e instanceof DeskFailure)) throw e;
  if (ctx.json) ctx.io.out(JSON.stringify({ ok: false, code: e.code, message: e.message }, null, 2));
  ctx.io.err(e.message);
  return exitCodeFor('localDatabase', e.code);
}

async function check(ctx: CliContext): Promise<number> {
  commandArgs(ctx, {}, false);
  let db: DeskDatabase;
  try {
    db = openExisting(ctx);
  } catch (e) {
    return failed(ctx, e);
  }
  try {
    const result = db.check();
    if (ctx.json) ctx.io.out(JSON.stringify(result, null, 2));
    else if (result.ok) {
      ctx.io.out(`${result.path} is whole (schema ${result.schemaVersion}, ${result.bytes} bytes).`);
    } else {
      ctx.io.out(`${result.path} is damaged:`);
      for (const problem of result.problems.slice(0, 20)) ctx.io.out(`  ${problem}`);
    }
    if (!result.ok) {
      ctx.io.err(
        `Close Donation Desk and restore the newest backup from ${join(ctx.dataDir, BACKUP_FOLDER)}, or ask support. Nothing was changed.`,
      );
    }
    return result.ok ? EXIT.ok : EXIT.problems;
  } catch (e) {
    return failed(ctx, e);
  } finally {
    db.close();
  }
}

async function backup(ctx: CliContext): Promise<number> {
  const { values } = commandArgs(ctx, { out: { type: 'string' } }, false);
  if (values.out === '') {
    ctx.io.err('--out needs a file name.');
    return EXIT.usage;
  }
  let db: DeskDatabase;
  try {
    db = openExisting(ctx);
  } catch (e) {
    return failed(ctx, e);
  }
  try {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const out = values.out ?? join(ctx.dataDir, BACKUP_FOLDER, `desk-${stamp}.db`);
    const written = await db.backup(out);
    if (ctx.json) ctx.io.out(JSON.stringify({ ok: true, ...written }, null, 2));
    else ctx.io.out(`Backed up ${db.path} to ${written.path} (${written.bytes} bytes).`);
    return EXIT.ok;
  } catch (e) {
    return failed(ctx, e);
  } finally {
    db.close();
  }
}

registerCommand('db', {
  summary: "The data folder's database: check it, back it up; set up a team's shared database.",
  usage: USAGE,
  async run(ctx) {
    const [action, ...rest] = ctx.args;
    const sub = { ...ctx, args: rest };
    if (action === 'check') return check(sub);
    if (action === 'backup') return backup(sub);
    if (action === 'init-team') return initTeam(sub);
    ctx.io.err(
      'Say what to do: donation-desk db check, donation-desk db backup --out FILE, or donation-desk db init-team --url URL.',
    );
    return EXIT.usage;
  },
});
