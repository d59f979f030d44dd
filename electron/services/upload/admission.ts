/*
 * What may go in an upload: no mapping problems, no invalid rows unless they are left out, no row
 * already sent unless confirmed, and corrections of declined donations only as Reconcile allows.
 */
import type { ChannelResponse } from '../../../shared/contract';
import { count, plural } from '../../../shared/i18n';
import { REPLACES_KEY } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import { sentFingerprints } from '../ledger/duplicateGuard';
import type { UploadContext } from './context';
import type { ReadyRow, ValidatedWorkspace } from './prepare';
import type { SentByColleague } from './sendGate';

export type DuplicateFlags = ChannelResponse<'upload.preview'>['duplicates'];

/** The rows of an upload that replace a declined donation (metadata ddReplaces). */
export function replacementsOf(
  rows: readonly ReadyRow[],
): Array<{ rowKey: number; rowNumber: number | null; donationId: string }> {
  const found: Array<{ rowKey: number; rowNumber: number | null; donationId: string }> = [];
  for (const row of rows) {
    const donationId = row.donation.metadata?.[REPLACES_KEY];
    if (donationId) found.push({ rowKey: row.key, rowNumber: row.rowNumber, donationId });
  }
  return found;
}

/**
 * Rows already out (or on their way) by fingerprint, for the duplicate guard: this computer's
 * ledger first, then colleagues' uploads as the send gate knows them.
 */
export async function duplicateFlags(
  ctx: Pick<UploadContext, 'environments' | 'ledger' | 'gate'>,
  ready: readonly ReadyRow[],
  /** A preview still says what this computer knows when colleagues' uploads cannot be asked. */
  colleaguesOptional = false,
  /** A resend: the failed upload's own claims on its rows are not duplicates. */
  exceptUpload?: string,
): Promise<DuplicateFlags> {
  const service = await ctx.environments.describe();
  const sent = sentFingerprints(ctx.ledger.allGroups(), ctx.ledger.allIntents(), service);
  let elsewhere = new Map<string, SentByColleague>();
  try {
    elsewhere = await ctx.gate.sentElsewhere(
      service,
      ready.filter((r) => !sent.has(r.fingerprint)).map((r) => r.fingerprint),
      exceptUpload,
    );
  } catch (e) {
    // The upload itself asks again.
    if (!colleaguesOptional) throw e;
  }
  const flags: DuplicateFlags = [];
  for (const row of ready) {
    const hit = sent.get(row.fingerprint);
    if (hit) flags.push({ rowKey: row.key, row: row.rowNumber, intentId: hit.intentId, sentAt: hit.sentAt });
    const other = hit ? undefined : elsewhere.get(row.fingerprint);
    if (other)
      flags.push({
        rowKey: row.key,
        row: row.rowNumber,
        intentId: other.uploadId,
        sentAt: other.at,
        sentBy: other.sentBy,
        uploadId: other.uploadId,
        computer: other.computer,
      });
  }
  return flags;
}

/** "Send only the new rows": the ready rows no flag names (every row sent before stays out). */
export function newRowsOf(ready: readonly ReadyRow[], flags: DuplicateFlags): ReadyRow[] {
  const sentBefore = new Set(flags.map((f) => f.rowKey));
  return ready.filter((r) => !sentBefore.has(r.key));
}

/** Refuses what must not be sent: mapping errors, invalid rows (unless skipped), unconfirmed duplicates. */
export async function admit(
  ctx: Pick<UploadContext, 'environments' | 'ledger' | 'gate'>,
  validated: ValidatedWorkspace,
  skipInvalid: boolean | undefined,
  confirm: 'all' | number[] | undefined,
  resending?: string,
  skipDuplicates = false,
): Promise<{ rows: ReadyRow[]; duplicates: DuplicateFlags }> {
  if (validated.mappingProblems.length) {
    throw new DeskFailure('MAPPING_INCOMPLETE', validated.mappingProblems.join(' '), {
      problems: validated.mappingProblems,
    });
  }
  if (validated.invalid.length && !skipInvalid) {
    const rows = validated.invalid.slice(0, 10).map((r) => r.rowNumber ?? `new row ${r.key}`);
    throw new DeskFailure(
      'INVALID_ROWS',
      `${count(validated.invalid.length, 'row')} ${plural(validated.invalid.length, { one: 'has', other: 'have' })} errors (for example row ${rows.join(', ')}). Fix them, or choose to upload without them.`,
      { rowKeys: validated.invalid.map((r) => r.key) },
    );
  }
  const flags = await duplicateFlags(ctx, validated.ready, false, resending);
  if (skipDuplicates) {
    // "Send only the new rows": every row sent before stays out, whatever was asked of each.
    const rows = newRowsOf(validated.ready, flags);
    if (rows.length === 0) {
      throw new DeskFailure(
        'NOTHING_TO_SEND',
        'Every valid row of this workspace went out before: there is no new row to upload.',
      );
    }
    return { rows, duplicates: [] };
  }
  const confirmed = confirm === 'all' ? null : new Set(confirm ?? []);
  const unconfirmed = confirmed ? flags.filter((f) => !confirmed.has(f.rowKey)) : [];
  if (unconfirmed.length) {
    const first = unconfirmed[0] as (typeof unconfirmed)[number];
    const where = first.sentBy
      ? `by ${first.sentBy} on ${first.sentAt.slice(0, 10)} (upload ${first.uploadId}${first.computer ? ` from ${first.computer}` : ''})`
      : `in bulk ${first.intentId} on ${first.sentAt.slice(0, 10)}`;
    throw new DeskFailure(
      'DUPLICATES',
      `${count(unconfirmed.length, 'row')} ${plural(unconfirmed.length, { one: 'was', other: 'were' })} already sent (for example row ${first.row ?? first.rowKey} ${where}). Confirm them to send them again, or remove them.`,
      { duplicates: unconfirmed },
    );
  }
  if (validated.ready.length === 0) {
    throw new DeskFailure('NOTHING_TO_SEND', 'There are no valid rows to upload.');
  }
  return { rows: validated.ready, duplicates: flags };
}

/**
 * Rows that correct declined donations may go only while those are open and in no other upload:
 * one declined donation, one replacement. A resend of such rows after a failed bulk is asked again:
 * the failed bulk gave their claims back once the service said it created nothing for them.
 */
export async function checkReplacements(
  ctx: Pick<UploadContext, 'checkReplacements'>,
  rows: readonly ReadyRow[],
  uploadId?: string,
): Promise<void> {
  const replaces = replacementsOf(rows);
  if (replaces.length === 0) return;
  if (!ctx.checkReplacements) {
    throw new DeskFailure(
      'REPLACEMENT_NOT_ALLOWED',
      `Row ${replaces[0]?.rowNumber ?? replaces[0]?.rowKey} carries metadata ${REPLACES_KEY}, which only corrections made from Reconcile may carry.`,
    );
  }
  await ctx.checkReplacements(replaces, uploadId);
}
