/*
 * Team mode, a new upload: recorded as 'submitting' before the team database hears of it, then its
 * rows are claimed in the shared guard and it is submitted with what an approver reviews. The
 * database applies the team's rule and answers whether it waits for an approval.
 */
import { count, plural } from '../../../../shared/i18n';
import { DeskFailure } from '../../../../shared/result';
import type { LedgerApproval, LedgerGroup } from '../../ledger/ledgerShapes';
import { serviceInUse, type UploadBasics } from '../../upload/basics';
import { stopGroup } from '../../upload/ledgerGroups';
import type { SubmittedRows, UploadSubmission } from '../../upload/sendGate';
import type { SentElsewhere, TeamDatabase } from '../teamTypes';
import { bulkFileSha256, environmentKeyOf, reviewFacts, totalsOverParts } from '../teamUploads';
import { noteTeamState } from './approvalState';
import { teamCall } from './teamCall';
import { storeFiles } from './uploadFiles';

export function teamSubmission(
  ctx: UploadBasics,
  team: TeamDatabase,
  computer: string | undefined,
  filesStored: Set<string>,
): UploadSubmission {
  return {
    // Recorded before the team database hears of it: never sent while 'submitting'.
    approval: (partHashes): LedgerApproval => ({
      server: team.server,
      fileSha256: bulkFileSha256(partHashes),
      needed: true,
      state: 'submitting',
      preparer: null,
      decidedBy: null,
      decidedAt: null,
      reason: null,
    }),
    async notRecorded(uploadId, claimed) {
      if (claimed.length > 0) await team.giveBackUploadCorrections(uploadId, claimed).catch(() => undefined);
    },
    submit: (group, rows) => submit(ctx, team, computer, filesStored, group, rows),
  };
}

/**
 * Refused rows (claimed meanwhile by another upload) or an unreachable server stop the upload
 * before anything is sent.
 */
async function submit(
  ctx: UploadBasics,
  team: TeamDatabase,
  computer: string | undefined,
  filesStored: Set<string>,
  group: LedgerGroup,
  { rows, warnings, leftOut, confirmed, alreadyOut }: SubmittedRows,
): Promise<LedgerGroup> {
  const approval = group.approval as LedgerApproval;
  const environmentKey = environmentKeyOf(await serviceInUse(ctx));
  try {
    const refused = await teamCall(() =>
      team.claimRows(
        group.id,
        environmentKey,
        rows.map((r) => r.fingerprint),
        confirmed,
      ),
    );
    if (refused.length) throw refusedRows(refused, rows);
    const submitted = await teamCall(() =>
      team.submit({
        id: group.id,
        workspaceName: group.workspaceName,
        environment: group.environment,
        environmentKey,
        computer: computer ?? 'unknown computer',
        fileSha256: approval.fileSha256,
        rows: rows.length,
        totals: totalsOverParts(group.parts),
        review: reviewFacts(
          rows.map((r) => r.donation),
          { createdAt: group.createdAt, alreadyOut, warnings: [...warnings], leftOut },
        ),
      }),
    );
    const noted = await noteTeamState(ctx, group, submitted);
    // The exact files go with the submission, whoever sends it: an approval needs them, and the
    // computer that sends sends them (asked again at each resume, should the server not take them now).
    await storeFiles(ctx, team, noted, filesStored).catch(() => undefined);
    return noted;
  } catch (e) {
    const reason = `Not submitted to the team database: ${e instanceof Error ? e.message : String(e)}`;
    await stopGroup(ctx, group, reason);
    // Corrections claimed for it are given back (the database gives back only the caller's own).
    if (group.replaces.length > 0) await team.voidUpload(group.id, reason).catch(() => null);
    throw e;
  }
}

/** The shared guard refused some rows: claimed meanwhile by another upload of the team. */
function refusedRows(refused: SentElsewhere[], rows: SubmittedRows['rows']): DeskFailure {
  const first = refused[0] as SentElsewhere;
  const row = rows.find((r) => r.fingerprint === first.fingerprint);
  return new DeskFailure(
    'DUPLICATES',
    `${count(refused.length, 'row')} ${plural(refused.length, { one: 'was', other: 'were' })} already sent (for example row ${row?.rowNumber ?? row?.key ?? '?'} by ${first.sentBy} on ${first.at.slice(0, 10)} (upload ${first.uploadId} from ${first.computer})). Confirm them to send them again, or remove them.`,
    {
      duplicates: refused.map((r) => {
        const hit = rows.find((x) => x.fingerprint === r.fingerprint);
        return {
          rowKey: hit?.key ?? null,
          row: hit?.rowNumber ?? null,
          intentId: r.uploadId,
          sentAt: r.at,
          sentBy: r.sentBy,
          uploadId: r.uploadId,
          computer: r.computer,
        };
      }),
    },
  );
}
