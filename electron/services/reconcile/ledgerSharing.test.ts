import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { LedgerGroupSummary } from '../ledger/ledgerShapes';
import { localLedgerSharing, sentElsewhere } from './ledgerSharing';

describe('working alone', () => {
  it('shares nothing and reads nothing of this computer’s', async () => {
    const ours = vi.fn();
    const own = vi.fn(() => []);
    const open = vi.fn(() => ['d1']);
    expect(await localLedgerSharing.colleaguesBulks(true)).toBeNull();
    await localLedgerSharing.publishBulks(ours);
    expect(await localLedgerSharing.shareOneByOne(own)).toEqual([]);
    await localLedgerSharing.publishOne('d1', 'single', '2026-11-01T00:00:00.000Z');
    expect(await localLedgerSharing.correctionsElsewhere(['d1'])).toEqual(new Map());
    expect(await localLedgerSharing.correctionGuard()).toBeUndefined();
    await localLedgerSharing.claimForUpload('u1', [{ rowKey: 0, rowNumber: 2, donationId: 'd1' }]);
    await localLedgerSharing.finishCorrections([['d1', 'r1']]);
    expect(await localLedgerSharing.closedElsewhere(open)).toEqual({ replaced: [], dismissed: [] });
    expect(await localLedgerSharing.dismiss('d1', 'Closed')).toBeNull();
    expect(ours).not.toHaveBeenCalled();
    expect(own).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });
});

describe('sentElsewhere', () => {
  it('names the colleague who sent an upload from another computer, and no one for this one’s', () => {
    const group = { id: 'u1' } as LedgerGroupSummary;
    expect(sentElsewhere(group)).toBeNull();
    const theirs = { ...group, sentElsewhere: { by: 'alice', computer: 'alice-pc' } };
    expect(sentElsewhere(theirs)).toEqual({ by: 'alice', computer: 'alice-pc' });
  });
});

describe('the reconcile services', () => {
  it('import nothing from team mode (they reach it through their ledger sharing)', async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const offenders: string[] = [];
    for (const name of await readdir(here)) {
      if (!name.endsWith('.ts')) continue;
      const text = await readFile(join(here, name), 'utf8');
      if (/from '\.\.\/team\//.test(text)) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });
});
