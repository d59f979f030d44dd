import { afterEach, describe, expect, it, vi } from 'vitest';
import { testApproval, testBasics, testGroup } from '../../upload/testFixtures';
import type { TeamDatabase } from '../teamTypes';
import { giveBackEndedCorrections } from './correctionGiveBack';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

function fakeTeam(held: Array<{ uploadId: string; donationId: string }>) {
  return {
    server: 'db.example.org:5432/desk',
    uploadCorrections: vi.fn(async () => held),
    giveBackUploadCorrections: vi.fn(async (_id: string, ids: string[]) => ids),
    voidUpload: vi.fn(async () => null),
  } as unknown as TeamDatabase;
}

describe('giveBackEndedCorrections', () => {
  it('gives back what a stopped upload still holds, voiding it first, and reports it settled', async () => {
    const t = await testBasics();
    close = t.close;
    const stopped = { at: 'then', reason: 'Not submitted to the team database: away' };
    const replaces = [{ rowKey: 1, donationId: 'd-1' }];
    await t.basics.ledger.putGroup(testGroup('u1', { approval: testApproval('waiting'), stopped, replaces }));
    // Still open: keeps its claim.
    await t.basics.ledger.putGroup(
      testGroup('u2', { approval: testApproval('waiting'), replaces: [{ rowKey: 1, donationId: 'd-2' }] }),
    );
    const team = fakeTeam([{ uploadId: 'u1', donationId: 'd-1' }]);
    const settled = await giveBackEndedCorrections(t.basics.ledger, team, null);
    expect(settled).toEqual(['u1 d-1']);
    expect(team.uploadCorrections).toHaveBeenCalledWith(['u1']);
    expect(team.voidUpload).toHaveBeenCalledWith('u1', stopped.reason);
    expect(team.giveBackUploadCorrections).toHaveBeenCalledWith('u1', ['d-1']);
    // Settled already, or submitted to another database: not asked again.
    expect(await giveBackEndedCorrections(t.basics.ledger, team, null, new Set(settled))).toEqual([]);
    const other = { ...fakeTeam([]), server: 'other:5432/desk' } as unknown as TeamDatabase;
    expect(await giveBackEndedCorrections(t.basics.ledger, other, null)).toEqual([]);
  });
});
