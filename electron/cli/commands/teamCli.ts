import { DeskFailure } from '../../../shared/result';
import type { DeskRuntime } from '../../services';
import type { TeamDatabase } from '../../services/team/teamTypes';
import { EXIT, type CliContext } from '../main';

/*
 * What the team commands (approvals, corrections) share: the team database in force, or a plain
 * "set one" and exit 2; and the exit code of a failure: 3 the database was not reached, 2 it is not
 * set up (or the address is not one), 1 it said no.
 */

/** Failures that mean the database was not reached, rather than that it said no. */
const UNREACHABLE = new Set(['TEAM_UNAVAILABLE', 'TEAM_UNREACHABLE', 'TEAM_LOGIN_FAILED', 'TEAM_ERROR']);
/** Failures of the set-up (no schema yet, an address that is not one, none configured): exit 2. */
const CONFIGURATION = new Set(['TEAM_NOT_SET_UP', 'TEAM_SCHEMA_OLD', 'INVALID_INPUT', 'NOT_CONFIGURED']);

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

/** Whether a failure means the team database was not reached (exit 3), rather than that it said no. */
export function teamUnreachable(e: unknown): boolean {
  return !(e instanceof DeskFailure) || UNREACHABLE.has(e.code);
}

/** Says what went wrong and answers the exit code. */
export function teamRefusal(ctx: CliContext, e: unknown): number {
  const message = e instanceof Error ? e.message : String(e);
  if (!(e instanceof DeskFailure) || teamUnreachable(e)) {
    ctx.io.err(message);
    return EXIT.service;
  }
  if (CONFIGURATION.has(e.code)) {
    ctx.io.err(message);
    return EXIT.usage;
  }
  ctx.io.err(`The team database refused: ${message}`);
  return EXIT.problems;
}
