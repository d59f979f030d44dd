import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TrailCheck } from '../../../shared/contract/auditChannels';
import { BROKEN_TRAIL_ADVICE, trailCheckSentence } from '../../../shared/audit/trailCheckWords';
import { DeskFailure } from '../../../shared/result';
import { AuditStore } from '../../services/audit/auditStore';
import { DATABASE_FILE, DeskDatabase } from '../../services/db/deskDatabase';
import { EXIT, exitCodeOf } from '../exitCodes';
import { commandArgs, type CliContext } from '../main';

export const VERIFY_USAGE = `donation-desk audit verify [--json]

Checks that no entry of the audit trail was changed, removed or added from outside the app: each
entry carries a hash over its content and the previous entry's hash, and the chain is walked from
the first entry to the last. Checks the data folder's trail and, in team mode
(DONATION_DESK_DATABASE_URL), the team's too. Names the first entry found broken and why.
With --json prints {"whole", "trails": [{"trail", "whole", "entries", "firstBroken"?, "sentence"}]}.
Exit codes: 0 every trail checked is whole; 1 a trail is broken (the first broken entry is named);
2 the folder has no database yet or the arguments cannot be used; 3 the team database could not be
reached.`;

/** `donation-desk audit verify`: the data folder's trail and, in team mode, the team's. */
export async function auditVerify(ctx: CliContext): Promise<number> {
  commandArgs(ctx, {}, false);
  if (!existsSync(join(ctx.dataDir, DATABASE_FILE))) {
    ctx.io.err(
      `There is no database in ${ctx.dataDir} yet, so no audit trail to check: it is made the first time the app or a command uses this folder.`,
    );
    return EXIT.usage;
  }
  let checks: TrailCheck[];
  let teamInForce = false;
  try {
    if (ctx.io.env.DONATION_DESK_DATABASE_URL) {
      const desk = await ctx.runtime();
      teamInForce = desk.team.current() !== null;
      checks = await desk.services['audit.verify']({}, { transport: 'cli' });
    } else {
      checks = [await folderCheck(ctx)];
    }
  } catch (e) {
    if (e instanceof DeskFailure && !e.code.startsWith('TEAM_')) {
      ctx.io.err(e.message);
      return EXIT.usage;
    }
    ctx.io.err(`The team's audit trail could not be checked: ${e instanceof Error ? e.message : String(e)}`);
    return exitCodeOf('teamAudit', e);
  }
  const whole = checks.every((c) => c.whole);
  if (ctx.json) {
    const trails = checks.map((c) => ({ ...c, sentence: trailCheckSentence(c) }));
    ctx.io.out(JSON.stringify({ whole, trails }, null, 2));
  } else {
    for (const check of checks) ctx.io.out(trailCheckSentence(check));
    if (teamInForce && !checks.some((c) => c.trail === 'team')) {
      ctx.io.out('The team’s audit trail was not checked: this version cannot check it.');
    }
    if (!whole) ctx.io.out(BROKEN_TRAIL_ADVICE);
  }
  return whole ? EXIT.ok : EXIT.problems;
}

async function folderCheck(ctx: CliContext): Promise<TrailCheck> {
  const db = DeskDatabase.open(ctx.dataDir);
  try {
    return await new AuditStore(db).verify();
  } finally {
    db.close();
  }
}
