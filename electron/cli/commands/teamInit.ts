import pg from 'pg';
import { DeskFailure } from '../../../shared/result';
import { DATABASE_URL_VARIABLE } from '../../services/team/teamConnection';
import { describeServer, passwordOf, teamFailure } from '../../services/team/teamErrors';
import { initTeamDatabase } from '../../services/team/teamInit';
import { checkRootCert, teamTlsPlan } from '../../services/team/teamTls';
import { EXIT, exitCodeFor } from '../exitCodes';
import { commandArgs, type CliContext } from '../main';

/** `donation-desk db init-team`: sets up (or brings up to date) the team database and prints its SQL. */
export async function initTeam(ctx: CliContext): Promise<number> {
  const { values } = commandArgs(ctx, { url: { type: 'string' } }, false);
  const url = (values.url ?? ctx.io.env[DATABASE_URL_VARIABLE] ?? '').trim();
  const fail = (e: DeskFailure, code: number) => {
    if (ctx.json) ctx.io.out(JSON.stringify({ ok: false, code: e.code, message: e.message }, null, 2));
    ctx.io.err(e.message);
    return code;
  };
  if (!url) {
    return fail(
      new DeskFailure(
        'INVALID_INPUT',
        `Say which database to set up: --url postgres://ADMIN@HOST:5432/DATABASE, or set ${DATABASE_URL_VARIABLE}.`,
      ),
      EXIT.usage,
    );
  }
  let server: string;
  let address: string;
  try {
    server = describeServer(url);
    // sslmode and sslrootcert mean here what they mean for the app (teamTls.ts).
    const plan = teamTlsPlan(url, ctx.io.env);
    if (plan.rootCert) checkRootCert(plan.rootCert);
    address = plan.address;
  } catch (e) {
    return fail(e as DeskFailure, EXIT.usage);
  }
  const client = new pg.Client({
    connectionString: address,
    connectionTimeoutMillis: 10_000,
    application_name: 'Donation Desk',
  });
  // A connection dropped mid-way is answered by the query that was running.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const result = await initTeamDatabase(client);
    if (ctx.json) {
      ctx.io.out(JSON.stringify({ ok: true, server, ...result }, null, 2));
      return EXIT.ok;
    }
    if (result.statements.length === 0) {
      ctx.io.out(
        `The team database at ${server} is already set up, schema version ${result.version}; nothing was run.`,
      );
      return EXIT.ok;
    }
    // The same version before and after: its functions re-applied, or its history recorded.
    const versions =
      result.before === result.version
        ? `schema version ${result.version}`
        : `schema version ${result.before} → ${result.version}`;
    ctx.io.out(`-- Donation Desk: team database at ${server}, ${versions}, in one transaction.`);
    for (const statement of result.statements) {
      ctx.io.out(`${statement};\n`);
      await ctx.io.drain?.();
    }
    ctx.io.out(
      `-- Done: the team database at ${server} is set up (schema version ${result.version}). Give each person a login and a desk role, e.g.\n--   CREATE ROLE alice LOGIN PASSWORD '…'; GRANT desk_preparer TO alice;`,
    );
    return EXIT.ok;
  } catch (e) {
    const failure = teamFailure(e, server, passwordOf(url));
    return fail(failure, exitCodeFor('teamInit', failure.code));
  } finally {
    await client.end().catch(() => undefined);
  }
}
