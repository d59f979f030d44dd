// Test-only: an upload of one part as the ledger records it.
import type { LedgerGroup } from '../ledgerShapes';

/** An upload `id` of one part holding the rows `rowKeys` with these fingerprints. */
export function group(id: string, rowKeys: number[], fingerprints: string[]): LedgerGroup {
  return {
    id,
    workspaceId: 'ws-12345678',
    workspaceName: 'Gifts',
    createdAt: '2026-11-22T05:00:00.000Z',
    environment: 'offline',
    baseUrl: 'http://127.0.0.1:1',
    referenceKey: 'ddRef',
    parts: [
      {
        index: 0,
        rowKeys,
        rowNumbers: rowKeys.map((k) => k + 1),
        fingerprints,
        totals: [{ currencyCode: 'USD', count: rowKeys.length, amount: 100 * rowKeys.length }],
        fileHash: 'ab',
        fileBytes: 10,
        file: `files/${id}-0.json.gz`,
      },
    ],
    corrects: null,
    replaces: [],
    stopped: null,
  };
}
