import { DeskFailure } from '../../../../shared/result';

/**
 * A call to the team database: what it refuses comes back as the DeskFailure it threw; anything
 * else (the server cannot be reached) says so plainly, since sending needs the team database.
 */
export async function teamCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof DeskFailure) throw e;
    throw new DeskFailure(
      'TEAM_UNAVAILABLE',
      `The team database could not be reached (${e instanceof Error ? e.message : String(e)}). Preparing and checking work without it; uploading waits until it answers.`,
    );
  }
}
