import { readFile } from 'node:fs/promises';
import { count } from '../../../shared/i18n';
import { join } from 'node:path';
import { parseErrorFile, type NormalisedError } from '../../../shared/bulk-file/errorFile';
import { matchDonations } from '../../../shared/bulk-file/matchDonations';
import type { BulkIntentResource } from '../../../shared/bulk-file/serviceShapes';
import type { UploadErrors, UploadIssue } from '../../../shared/contract/uploadChannels';
import { compileMapping } from '../../../shared/mapping';
import { parseWorkspaceMapping } from '../../../shared/workspace';
import { DeskFailure } from '../../../shared/result';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { gunzipText, sha256 } from './compress';
import type { UploadContext } from './context';

/** How many times a lapsed error-file address is replaced by a fresh one before giving up. */
const ERROR_FILE_TRIES = 4;

/** The donations exactly as uploaded in a part, read back from the kept .gz (its hash checked). */
export async function uploadedDonations(
  ctx: UploadContext,
  group: LedgerGroup,
  partIndex: number,
): Promise<unknown[]> {
  const part = group.parts[partIndex];
  if (!part) throw new DeskFailure('NOT_FOUND', 'That part of the upload is not in the ledger.');
  const gz = await readFile(join(ctx.ledger.dir, part.file)).catch(() => null);
  if (!gz || sha256(gz) !== part.fileHash) {
    throw new DeskFailure(
      'LEDGER_FILE_MISSING',
      'The copy of the uploaded file kept by the app is missing or changed, so results cannot be matched to rows.',
    );
  }
  const body = JSON.parse(await gunzipText(gz)) as { data: Array<{ attributes: unknown }> };
  return body.data.map((entry) => entry.attributes);
}

/**
 * Which rows of an intent's part got a donation: every page of the bulk's donations, matched to the
 * uploaded donations by the reference pair, else by content. This is what keeps a resend from
 * sending any donation twice after a partial extraction.
 */
export async function rowsWithDonation(
  ctx: UploadContext,
  group: LedgerGroup,
  intent: LedgerIntent,
): Promise<number[]> {
  if (!intent.serviceId) return [];
  const found = await ctx.client.listBulkDonations(intent.serviceId);
  if (found.length === 0) return [];
  const part = group.parts[intent.part];
  if (!part) return [];
  const uploaded = await uploadedDonations(ctx, group, intent.part);
  const matches = matchDonations(
    found.map((d) => ({ attributes: d.attributes })),
    uploaded,
    group.referenceKey ? { referenceKey: group.referenceKey } : {},
  );
  const keys = new Set<number>();
  let unmatched = 0;
  for (const m of matches) {
    if (m.uploadIndex === undefined) unmatched++;
    else keys.add(part.rowKeys[m.uploadIndex] as number);
  }
  if (unmatched > 0) {
    // A donation we cannot place means we cannot prove which rows are safe to send: refuse to guess.
    throw new DeskFailure(
      'UNMATCHED_DONATIONS',
      `${count(unmatched, 'donation')} of bulk ${intent.serviceId} could not be matched to rows, so nothing is resent automatically.`,
    );
  }
  return [...keys].sort((a, b) => a - b);
}

function errorEntries(
  intent: BulkIntentResource,
): Array<{ code: string; title: string; detail: string; href?: string }> {
  const raw = intent.attributes.errors;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((e) => ({
    code: e.code,
    title: e.title ?? e.code,
    detail: e.detail ?? '',
    ...(e.links?.href ? { href: e.links.href } : {}),
  }));
}

function fileNameOf(href: string): string {
  try {
    return decodeURIComponent(new URL(href).pathname.split('/').pop() ?? '');
  } catch {
    return '';
  }
}

/**
 * The error file of an intent in ERROR, each error placed on its row and cell. The address is read
 * fresh from the intent every time and read again when it has lapsed (403).
 */
export async function errorsOf(
  ctx: UploadContext,
  group: LedgerGroup,
  intent: LedgerIntent,
): Promise<UploadErrors> {
  if (!intent.serviceId) throw new DeskFailure('NOT_IN_ERROR', 'This intent never reached the service.');
  let remote: BulkIntentResource | null = null;
  let gz: Buffer | null = null;
  let href: string | undefined;
  for (let tries = 0; tries < ERROR_FILE_TRIES && !gz; tries++) {
    remote = await ctx.client.getIntent(intent.serviceId);
    if (remote.attributes.status !== 'ERROR') {
      throw new DeskFailure(
        'NOT_IN_ERROR',
        `Bulk ${intent.serviceId} is ${remote.attributes.status}, not in error.`,
      );
    }
    href = errorEntries(remote).find((e) => e.href)?.href;
    if (!href) break;
    gz = await ctx.client.downloadErrorFile(href);
  }
  if (!remote) throw new DeskFailure('NOT_IN_ERROR', 'The intent could not be read.');
  if (href && !gz) {
    throw new DeskFailure(
      'ERROR_FILE_UNAVAILABLE',
      'The error file’s address kept expiring before it could be downloaded. Try again.',
    );
  }
  const entries = errorEntries(remote);
  const workspace = await ctx.workspaces.read(group.workspaceId).catch(() => null);
  const mapping = workspace ? parseWorkspaceMapping(workspace.mapping) : null;
  const columnOf =
    workspace && mapping ? compileMapping(workspace.headers, mapping.template).columnOfField : null;
  const part = group.parts[intent.part];

  const placed = (error: NormalisedError, rowKey: number | null, row: number | null): UploadIssue => {
    const column = columnOf?.get(error.field) ?? null;
    return {
      rowKey,
      row,
      column: column?.header ?? null,
      columnIndex: column?.index ?? null,
      field: error.field,
      code: error.code ?? 'ERROR',
      title: error.title ?? 'Error',
      detail: error.detail ?? '',
    };
  };

  const issues: UploadIssue[] = [];
  let form: 'donations' | 'file' = Array.isArray(remote.attributes.errors) ? 'donations' : 'file';
  if (gz) {
    let text: string | null = null;
    try {
      text = await gunzipText(gz);
    } catch {
      text = null;
    }
    const parsed = parseErrorFile(text ?? '', {
      fileName: fileNameOf(href ?? ''),
      intentErrors: remote.attributes.errors,
    });
    form = parsed.form;
    if (parsed.form === 'donations' && part) {
      const uploaded = await uploadedDonations(ctx, group, intent.part);
      const matches = matchDonations(
        parsed.donations,
        uploaded,
        group.referenceKey ? { referenceKey: group.referenceKey } : {},
      );
      parsed.donations.forEach((donation, i) => {
        const index = matches[i]?.uploadIndex;
        const rowKey = index !== undefined ? (part.rowKeys[index] ?? null) : null;
        const row = index !== undefined ? (part.rowNumbers[index] ?? null) : null;
        for (const error of donation.errors) issues.push(placed(error, rowKey, row));
      });
    }
    for (const error of parsed.fileErrors) issues.push(placed(error, null, null));
  }
  if (issues.length === 0) {
    for (const e of entries)
      issues.push({
        rowKey: null,
        row: null,
        column: null,
        columnIndex: null,
        field: '',
        code: e.code,
        title: e.title,
        detail: e.detail,
      });
  }
  return {
    intentId: intent.serviceId,
    status: 'ERROR',
    form,
    issues,
    rowsWithDonation: intent.donationRowKeys?.length ?? 0,
  };
}
