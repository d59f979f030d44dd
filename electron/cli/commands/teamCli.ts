import type { DeskRuntime } from '../../services';
import type { TeamDatabase } from '../../services/team/teamTypes';
import { EXIT, exitCodeOf } from '../exitCodes';
import type { CliContext } from '../main';

/*
 * What the team commands (approvals, corrections) share: the team database in force, or a plain
 * "set one" and exit 2; and saying a failure with its exit code: 3 the database was not reached, 2
 * it is not set up (or the address is not one), 1 it said no.
 */

/** The runtime and its team database; null (with `why` said) when working alone. */
export async function teamOf(
  ctx: CliContext,
  why: string,
): Promise<{ desk: DeskRuntime; team: TeamDatabase } | null> {
  const desk = await ctx.runtime();
  // An address that is not one throws (INVALID_INPUT): reported by runCli with exit code 2.
  const team = desk.team.current();
  if (!team) {
    ctx.io.err(
      `${why}: set DONATION_DESK_DATABASE_URL (or choose one in the app under Settings → Team database).`,
    );
    return null;
  }
  return { desk, team };
}

/** Says what went wrong and answers the exit code (see FAILURE_EXITS.teamDecision). */
export function teamRefusal(ctx: CliContext, e: unknown): number {
  const message = e instanceof Error ? e.message : String(e);
  const code = exitCodeOf('teamDecision', e);
  ctx.io.err(code === EXIT.problems ? `The team database refused: ${message}` : message);
  return code;
}
