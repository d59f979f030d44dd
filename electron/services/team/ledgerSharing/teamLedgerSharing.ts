/*
 * Team mode, Reconcile's ledger sharing over the team database: this computer's bulks and donations
 * sent one by one go to the shared ledger and colleagues' are read back, corrections are claimed
 * before a replacement is created, and dismissals are the team's. The team database is asked for at
 * each use (it can change while the app runs); with none, every method does what working alone does.
 */
import { DeskFailure } from '../../../../shared/result';
import {
  localLedgerSharing,
  type ClosedElsewhere,
  type CorrectionElsewhere,
  type LedgerSharing,
} from '../../reconcile/ledgerSharing';
import {
  claimForUpload,
  correctionElsewhere,
  elsewhereMessage,
  teamCorrectionGuard,
} from './teamCorrectionClaims';
import { TEAM_WAIT_MS, teamBulks, type TeamBulksDeps } from './teamSharedBulks';
import type { TeamDismissal } from '../teamTypes';
import { environmentKeyOf } from '../teamUploads';
import { within } from './within';

export function teamLedgerSharing(deps: TeamBulksDeps): LedgerSharing {
  const bulks = teamBulks(deps);
  const teamKey = async (): Promise<string> => environmentKeyOf(await deps.describe());

  /**
   * A declined donation a colleague is correcting (or has replaced) is not dismissed here, or the two
   * computers would disagree on why it is closed. Best effort: with the server out of reach the
   * dismissal goes ahead (it sends nothing; the colleague's replacement still counts).
   */
  const refuseIfCorrectedElsewhere = async (donationId: string): Promise<void> => {
    const team = deps.team();
    if (!team) return;
    let holder;
    try {
      holder = (await team.corrections(await teamKey(), [donationId])).get(donationId);
    } catch {
      return;
    }
    if (holder && correctionElsewhere(holder)) {
      throw new DeskFailure(
        'CORRECTION_ELSEWHERE',
        holder.state === 'done'
          ? elsewhereMessage(holder)
          : `${holder.by} is already correcting this donation (from ${holder.computer || 'another computer'}, since ${holder.since.slice(0, 10)} ${holder.since.slice(11, 16)} UTC): it cannot be dismissed here while that correction stands. Ask ${holder.by}.`,
        { donationId, holder },
      );
    }
  };

  return {
    colleaguesBulks: async (fresh) => {
      const shared = await bulks.now(fresh);
      return shared ? { server: shared.server, bulks: shared.bulks } : null;
    },
    publishBulks: (ours) => bulks.publish(ours),

    /**
     * Donations sent one by one are shared both ways: this computer's go to the team's ledger where
     * missing, and the team's are answered (Reconcile reads colleagues' from the service).
     */
    shareOneByOne: async (own) => {
      const team = deps.team();
      if (!team) return [];
      const service = await deps.describe();
      if (service.emulated) return [];
      const key = environmentKeyOf(service);
      let shared;
      try {
        shared = await within(team.sentOneByOne(key), TEAM_WAIT_MS);
      } catch {
        return [];
      }
      const onTeam = new Set(shared.map((o) => o.donationId));
      try {
        for (const one of own()) {
          if (!onTeam.has(one.id)) await team.publishOne(key, one.id, one.kind, one.firstSeenAt);
        }
      } catch {
        // Not now: the next refresh publishes what is missing.
      }
      return shared;
    },

    publishOne: async (donationId, kind, sentAt) => {
      const team = deps.team();
      if (!team) return;
      try {
        const service = await deps.describe();
        if (service.emulated) return;
        await within(team.publishOne(environmentKeyOf(service), donationId, kind, sentAt), TEAM_WAIT_MS);
      } catch {
        // The next refresh publishes it.
      }
    },

    // Best effort: a team database that cannot be reached shows none, and never fails the page.
    correctionsElsewhere: async (donationIds) => {
      const team = deps.team();
      if (!team || donationIds.length === 0) return new Map();
      try {
        // A server slow to answer does not hold the page up: the claim, not the display, is the guard.
        const holders = await within(team.corrections(await teamKey(), donationIds), TEAM_WAIT_MS);
        const found = new Map<string, CorrectionElsewhere>();
        for (const [id, holder] of holders) {
          const shown = correctionElsewhere(holder);
          if (shown) found.set(id, shown);
        }
        return found;
      } catch {
        return new Map();
      }
    },

    correctionGuard: async () => {
      const team = deps.team();
      return team ? teamCorrectionGuard(team, await teamKey(), { how: 'single' }) : undefined;
    },

    claimForUpload: async (uploadId, rows) => {
      const team = deps.team();
      if (team) await claimForUpload(team, await teamKey(), uploadId, rows);
    },

    finishCorrections: async (seen) => {
      const team = deps.team();
      if (!team || seen.length === 0) return;
      // Best effort: a claim left in progress shows "being corrected", never lets a second one through.
      try {
        const key = await teamKey();
        for (const [declinedId, replacementId] of seen) {
          try {
            await team.finishCorrection(key, declinedId, replacementId);
          } catch (e) {
            // Not this login's claim (or none): the next one may be. A server away: no use asking again.
            if (!(e instanceof DeskFailure && e.code === 'TEAM_REFUSED')) return;
          }
        }
      } catch {
        // The environment could not be described: nothing to finish against.
      }
    },

    closedElsewhere: async (openOf) => {
      const closed: ClosedElsewhere = { replaced: [], dismissed: [] };
      const team = deps.team();
      if (!team) return closed;
      const open = openOf();
      if (open.length === 0) return closed;
      let holders;
      try {
        holders = await within(team.corrections(await teamKey(), open), TEAM_WAIT_MS);
      } catch {
        return closed;
      }
      for (const [donationId, holder] of holders) {
        if (holder.state !== 'done' || !holder.replacementId) continue;
        closed.replaced.push({ donationId, replacementId: holder.replacementId, by: holder.by });
      }
      // Dismissed by a colleague: closed here too, with their reason.
      let dismissals;
      try {
        dismissals = await within(
          team.dismissals(
            await teamKey(),
            open.filter((id) => !holders.has(id)),
          ),
          TEAM_WAIT_MS,
        );
      } catch {
        dismissals = new Map<string, TeamDismissal>();
      }
      for (const [donationId, d] of dismissals) {
        closed.dismissed.push({ donationId, at: d.at, reason: d.reason, by: d.by });
      }
      return closed;
    },

    /**
     * A dismissal is the team's (a colleague must not then correct the donation and pay the gift the
     * team closed), so it needs the team database: refused while someone corrects or has replaced
     * it, and while the server cannot be reached.
     */
    dismiss: async (donationId, reason) => {
      await refuseIfCorrectedElsewhere(donationId);
      const team = deps.team();
      if (!team) return localLedgerSharing.dismiss(donationId, reason);
      try {
        const done = await team.dismiss(await teamKey(), donationId, reason);
        const me = (await team.who()).login;
        return { at: done.at, reason: done.reason, by: done.by !== me ? done.by : null };
      } catch (e) {
        if (e instanceof DeskFailure && e.code === 'TEAM_REFUSED') {
          throw new DeskFailure('CORRECTION_ELSEWHERE', e.message, { donationId });
        }
        throw new DeskFailure(
          'TEAM_UNREACHABLE',
          `Dismissing is shared with the team, and the team database could not be reached (${e instanceof Error ? e.message : String(e)}); nothing was dismissed. Try again when it answers.`,
          { donationId },
        );
      }
    },
  };
}
