/*
 * Team mode, corrections of declined donations: before a replacement is created the correction is
 * claimed on the team database, so two colleagues cannot each replace the same declined donation
 * from their own computers (each one's local store only knows its own corrections). Alone there is
 * no guard and nothing changes (see reconcile/ledgerSharing.ts).
 */
import { DeskFailure } from '../../../../shared/result';
import type { CorrectionElsewhere, CorrectionGuard } from '../../reconcile/ledgerSharing';
import type { CorrectionHolder, CorrectionWay, TeamDatabase } from '../teamTypes';

/** "2026-11-25 10:42" (UTC), as the team database recorded the claim. */
const minute = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/** Why this computer may not correct the donation: someone else is on it, or has done it. */
export function elsewhereMessage(holder: CorrectionHolder): string {
  if (holder.state === 'done') {
    return `This donation was already replaced by ${holder.by} (replacement ${holder.replacementId ?? 'unknown'}); list the donations to see the replacement here.`;
  }
  const how = holder.how === 'upload' ? ' in an upload' : '';
  return `${holder.by} is already correcting this donation${how} (from ${holder.computer || 'another computer'}, since ${minute(holder.since)} UTC); a second correction would pay the gift twice. Ask ${holder.by}, or wait until the replacement shows here.`;
}

export function correctionElsewhere(holder: CorrectionHolder | undefined): CorrectionElsewhere | null {
  if (!holder || holder.state === 'abandoned') return null;
  return {
    by: holder.by,
    computer: holder.computer,
    since: holder.since,
    state: holder.state,
    replacementId: holder.replacementId,
  };
}

export function teamCorrectionGuard(
  team: TeamDatabase,
  environmentKey: string,
  way: CorrectionWay,
): CorrectionGuard {
  return {
    async claim(donationId) {
      const { granted, holder } = await team.claimCorrection(environmentKey, donationId, way).catch((e) => {
        if (dismissedForTeam(e)) {
          throw new DeskFailure('CORRECTION_ELSEWHERE', (e as Error).message, { donationId });
        }
        throw e;
      });
      if (!granted) {
        throw new DeskFailure('CORRECTION_ELSEWHERE', elsewhereMessage(holder), {
          donationId,
          holder,
        });
      }
    },
    // Best effort: a claim left in progress errs towards "being corrected", never towards paying twice.
    async finish(donationId, replacementId) {
      await team.finishCorrection(environmentKey, donationId, replacementId).catch(() => undefined);
    },
    async abandon(donationId) {
      await team.abandonCorrection(environmentKey, donationId).catch(() => undefined);
    },
  };
}

/** The team database refused a claim because the donation was dismissed for the team (DD010). */
function dismissedForTeam(e: unknown): boolean {
  return (
    e instanceof DeskFailure &&
    e.code === 'TEAM_REFUSED' &&
    (e.details as { sqlstate?: string } | undefined)?.sqlstate === 'DD010'
  );
}

/**
 * The upload path: every declined donation the upload's rows replace is claimed for that upload, or
 * none is (those just claimed are given back) and the rows held elsewhere are named.
 */
export async function claimForUpload(
  team: TeamDatabase,
  environmentKey: string,
  uploadId: string,
  rows: ReadonlyArray<{ rowKey: number; rowNumber: number | null; donationId: string }>,
): Promise<void> {
  const claimed: string[] = [];
  const problems: string[] = [];
  for (const row of rows) {
    const where = row.rowNumber !== null ? `Row ${row.rowNumber}` : `New row ${row.rowKey + 1}`;
    let answer;
    try {
      answer = await team.claimCorrection(environmentKey, row.donationId, { how: 'upload', uploadId });
    } catch (e) {
      // Dismissed for the team: a problem of that row like a colleague's correction.
      if (dismissedForTeam(e)) {
        problems.push(`${where}: ${(e as Error).message}`);
        continue;
      }
      await team.giveBackUploadCorrections(uploadId, claimed).catch(() => undefined);
      throw e;
    }
    const { granted, holder } = answer;
    if (granted) {
      claimed.push(row.donationId);
      continue;
    }
    problems.push(
      holder.state === 'done'
        ? `${where}: donation ${row.donationId} was already replaced by ${holder.by} (replacement ${holder.replacementId ?? 'unknown'}).`
        : `${where}: ${holder.by} is already correcting donation ${row.donationId} (from ${holder.computer || 'another computer'}, since ${minute(holder.since)} UTC).`,
    );
  }
  if (problems.length === 0) return;
  // Only what is still held for this upload: a claim taken since for something else stays.
  await team.giveBackUploadCorrections(uploadId, claimed).catch(() => undefined);
  throw new DeskFailure(
    'CORRECTION_ELSEWHERE',
    `${problems.slice(0, 5).join(' ')}${problems.length > 5 ? ' …' : ''} A second correction would pay the gift twice: remove ${problems.length === 1 ? 'that row' : 'those rows'} or clear the Replaces donation cell.`,
    { problems },
  );
}
