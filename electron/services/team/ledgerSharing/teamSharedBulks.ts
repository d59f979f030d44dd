/*
 * Team mode, the shared ledger's bulks as Reconcile sees them: the team's list read from the team
 * database (kept a while in memory, and on disk for a restart while the server is away), and this
 * computer's bulks written there where the team's record is behind (see ../teamLedger.ts).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DeskFailure } from '../../../../shared/result';
import type { OurBulks, SharedBulk } from '../../reconcile/ledgerSharing';
import { writeFileAtomic } from '../../storage/atomicFile';
import { bulkToPublish, publishedAlready } from '../teamLedger';
import type { TeamDatabase } from '../teamTypes';
import { environmentKeyOf } from '../teamUploads';
import { within } from './within';

/** How long the team's list of bulks is used before it is read again (a refresh always reads it). */
export const TEAM_BULKS_FRESH_MS = 30_000;
/** How long a read of the team database may take before the last answer (or none) is used. */
export const TEAM_WAIT_MS = 2_000;

export type ServiceDescription = { id: string; baseUrl: string; emulated: boolean };

export interface TeamBulksDeps {
  dataDir: string;
  team: () => TeamDatabase | null;
  describe: () => Promise<ServiceDescription>;
}

/** The team's bulks as last read from `server` for `key`, kept in the data folder; null if none or unreadable. */
async function readKeptTeamBulks(file: string, key: string, server: string): Promise<SharedBulk[] | null> {
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as {
      key?: unknown;
      server?: unknown;
      bulks?: unknown;
    };
    return kept.key === key && kept.server === server && Array.isArray(kept.bulks)
      ? (kept.bulks as SharedBulk[])
      : null;
  } catch {
    return null;
  }
}

export interface TeamBulks {
  /** The team's bulks, and whether the server answered just now (false: from memory or disk). */
  now(fresh?: boolean): Promise<{ server: string; bulks: SharedBulk[]; answered: boolean } | null>;
  publish(ours: () => Promise<OurBulks>): Promise<void>;
}

export function teamBulks(deps: TeamBulksDeps): TeamBulks {
  /**
   * The bulks the team's uploads created at this service, read again after a while or when asked;
   * with the server out of reach, the last answer (or none: only this computer's uploads are listed
   * then). Never for the Offline sandbox: each computer has its own.
   */
  let cache: { key: string; server: string; at: number; bulks: SharedBulk[] } | null = null;
  const now: TeamBulks['now'] = async (fresh = false) => {
    const team = deps.team();
    if (!team) return null;
    const service = await deps.describe();
    if (service.emulated) return null;
    const key = environmentKeyOf(service);
    const cached = cache && cache.key === key && cache.server === team.server ? cache : null;
    if (cached && !fresh && Date.now() - cached.at < TEAM_BULKS_FRESH_MS)
      return { ...cached, answered: false };
    const file = join(deps.dataDir, 'reconcile', `team-bulks-${service.id}.json`);
    try {
      const bulks = await within(team.teamBulks(key), TEAM_WAIT_MS);
      const changed = JSON.stringify(bulks) !== JSON.stringify(cached?.bulks);
      cache = { key, server: team.server, at: Date.now(), bulks };
      // Kept on disk too, so a restart while the server is away still lists colleagues' uploads.
      if (changed) {
        await mkdir(dirname(file), { recursive: true });
        await writeFileAtomic(file, JSON.stringify({ key, server: team.server, bulks }));
      }
      return { ...cache, answered: true };
    } catch {
      if (cached) return { ...cached, answered: false };
      const kept = await readKeptTeamBulks(file, key, team.server);
      if (kept) cache = { key, server: team.server, at: Date.now(), bulks: kept };
      return cache ? { ...cache, answered: false } : null;
    }
  };

  /**
   * This computer's bulks of sent team uploads, written to the shared ledger where the team's record
   * is behind (the upload services write each as it moves; this catches what they could not, and the
   * totals of a part that ended in ERROR part-way, which need the kept file).
   */
  const publish: TeamBulks['publish'] = async (ours) => {
    const team = deps.team();
    if (!team) return;
    const { local, environment, partials: partialsOf } = await ours();
    const shared = await now(true);
    // Only against what the server says now: with it away, nothing is tried (the next refresh does).
    if (!shared?.answered) return;
    const key = environmentKeyOf(await deps.describe());
    const partials = await partialsOf();
    const known = new Map(shared.bulks.map((b) => [b.bulkId, b]));
    let published = false;
    for (const b of local.bulks) {
      if (b.group.environment !== environment) continue;
      const partial = partials.get(b.bulkId);
      const wanted = bulkToPublish(
        b.group,
        b.intent,
        key,
        team.server,
        partial && 'totals' in partial ? partial.totals : null,
      );
      if (!wanted || publishedAlready(known.get(b.bulkId), wanted)) continue;
      try {
        await team.publishBulk(wanted);
        published = true;
      } catch (e) {
        // Refused for this bulk (not this login's to write): the others may still be. Away: stop.
        if (!(e instanceof DeskFailure && e.code === 'TEAM_REFUSED')) break;
      }
    }
    if (published) await now(true);
  };

  return { now, publish };
}
