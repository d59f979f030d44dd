import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { LedgerSummaryView } from './ledgerView';
import { readLedgerGroup } from '../ledger/ledgerStore';

const gunzipAsync = promisify(gunzip);

export type Money = { currencyCode: string; count: number; amount: number };

/** What was sent for the rows of a part that got a donation, or why it cannot be known. */
export type PartialTotals = { totals: Money[] } | { problem: string };

/**
 * Totals already read, by file, hash and rows: a part's file never changes once sent, and the
 * summary asks on every visit (a part may hold 50,000 rows).
 */
const known = new Map<string, Money[]>();
const KNOWN_MAX = 200;

/**
 * Per bulk that ended in ERROR after creating some donations: the totals of exactly the rows that got
 * one. The ledger knows those rows (matched back to the uploaded file by the reference pair when the
 * error was recorded) and keeps the file as sent, so the amounts come from what was sent, not from
 * what the service lists: a donation that differs from its row still shows as a difference.
 */
export async function partialTotals(
  ledgerDir: string,
  ledger: LedgerSummaryView,
  environment: string,
): Promise<Map<string, PartialTotals>> {
  const result = new Map<string, PartialTotals>();
  for (const bulk of ledger.bulks) {
    const keys = bulk.intent.donationRowKeys;
    if (bulk.group.environment !== environment || bulk.intent.state !== 'ERROR' || !keys?.length) continue;
    const part = bulk.group.parts[bulk.intent.part];
    if (!part) {
      result.set(bulk.bulkId, { problem: 'That part of the upload is not in the ledger.' });
      continue;
    }
    const cacheKey = `${join(ledgerDir, part.file)}|${part.fileHash}|${keys.join(',')}`;
    const cached = known.get(cacheKey);
    if (cached) {
      result.set(bulk.bulkId, { totals: cached });
      continue;
    }
    const gz = await readFile(join(ledgerDir, part.file)).catch(() => null);
    if (!gz || createHash('sha256').update(gz).digest('hex') !== part.fileHash) {
      result.set(bulk.bulkId, {
        problem:
          'The copy of the uploaded file kept by the app is missing or changed, so the amounts of the rows that got a donation are not known.',
      });
      continue;
    }
    let entries: unknown[];
    try {
      const body = JSON.parse((await gunzipAsync(gz)).toString('utf8')) as { data?: unknown };
      entries = Array.isArray(body.data) ? body.data : [];
    } catch {
      result.set(bulk.bulkId, { problem: 'The copy of the uploaded file kept by the app cannot be read.' });
      continue;
    }
    const wanted = new Set(keys);
    const totals = new Map<string, Money>();
    // A summary has no rows' keys: the upload's whole record is read for this rare case.
    const rowKeys =
      part.rowKeys ?? readLedgerGroup(ledgerDir, bulk.group.id)?.parts[bulk.intent.part]?.rowKeys ?? [];
    rowKeys.forEach((rowKey, index) => {
      if (!wanted.has(rowKey)) return;
      const funds = (
        entries[index] as { attributes?: { funds?: { currencyCode?: unknown; amount?: unknown } } }
      )?.attributes?.funds;
      if (typeof funds?.currencyCode !== 'string' || typeof funds.amount !== 'number') return;
      const t = totals.get(funds.currencyCode) ?? { currencyCode: funds.currencyCode, count: 0, amount: 0 };
      t.count++;
      t.amount += funds.amount;
      totals.set(funds.currencyCode, t);
    });
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(cacheKey, [...totals.values()]);
    result.set(bulk.bulkId, { totals: [...totals.values()] });
  }
  return result;
}
