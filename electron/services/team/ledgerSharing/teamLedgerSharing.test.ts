import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeskFailure } from '../../../../shared/result';
import type { LedgerGroupSummary, LedgerIntent } from '../../ledger/ledgerShapes';
import type { LedgerSummaryView } from '../../reconcile/ledgerView';
import { teamLedgerSharing } from './teamLedgerSharing';
import type { CorrectionHolder, TeamBulk, TeamDatabase, TeamDismissal } from '../teamTypes';

const production = { id: 'production', baseUrl: 'https://api.example.org/', emulated: false };
const KEY = 'production|https://api.example.org';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-sharing-'));
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const bulk = (over: Partial<TeamBulk> = {}): TeamBulk => ({
  environmentKey: KEY,
  bulkId: 'b1',
  uploadId: 'u1',
  part: 0,
  uploadCreatedAt: '2026-11-20T09:00:00.000Z',
  partTotals: [{ currencyCode: 'USD', count: 1, amount: 100 }],
  state: 'PROCESSED',
  takenTotals: [{ currencyCode: 'USD', count: 1, amount: 100 }],
  workspaceName: 'November',
  sentBy: 'alice',
  computer: 'alice-laptop',
  updatedAt: '2026-11-20T09:05:00.000Z',
  ...over,
});

const holder = (over: Partial<CorrectionHolder>): CorrectionHolder => ({
  donationId: 'd1',
  by: 'alice',
  computer: 'alice-laptop',
  since: '2026-11-25T10:42:00.000Z',
  how: 'single',
  uploadId: null,
  state: 'in-progress',
  replacementId: null,
  ...over,
});

const dismissal = (donationId: string, by: string): TeamDismissal => ({
  donationId,
  reason: 'Closed',
  by,
  computer: `${by}-laptop`,
  at: '2026-11-25T11:00:00.000Z',
});

/** A team database answering only what a test gives it. */
function fakeTeam(methods: Partial<TeamDatabase>): TeamDatabase {
  return { server: 'db.example.org:5432/desk', ...methods } as TeamDatabase;
}

function sharingWith(team: TeamDatabase | null, service = production) {
  return teamLedgerSharing({ dataDir: dir, team: () => team, describe: () => Promise.resolve(service) });
}

describe('the team ledger sharing', () => {
  it('with no team database does what working alone does', async () => {
    const sharing = sharingWith(null);
    const ours = vi.fn();
    const own = vi.fn(() => []);
    const open = vi.fn(() => ['d1']);
    expect(await sharing.colleaguesBulks()).toBeNull();
    await sharing.publishBulks(ours);
    expect(await sharing.shareOneByOne(own)).toEqual([]);
    expect(await sharing.correctionsElsewhere(['d1'])).toEqual(new Map());
    expect(await sharing.correctionGuard()).toBeUndefined();
    expect(await sharing.closedElsewhere(open)).toEqual({ replaced: [], dismissed: [] });
    expect(await sharing.dismiss('d1', 'Closed')).toBeNull();
    // Nothing of this computer's is even read.
    expect(ours).not.toHaveBeenCalled();
    expect(own).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });

  it('reads colleagues’ bulks once in a while, and keeps the last answer on disk for a server away', async () => {
    const teamBulks = vi.fn(() => Promise.resolve([bulk()]));
    const sharing = sharingWith(fakeTeam({ teamBulks }));
    expect(await sharing.colleaguesBulks()).toEqual({ server: 'db.example.org:5432/desk', bulks: [bulk()] });
    await sharing.colleaguesBulks();
    expect(teamBulks).toHaveBeenCalledTimes(1);
    expect(teamBulks).toHaveBeenCalledWith(KEY);
    await sharing.colleaguesBulks(true);
    expect(teamBulks).toHaveBeenCalledTimes(2);
    const kept = JSON.parse(await readFile(join(dir, 'reconcile', 'team-bulks-production.json'), 'utf8'));
    expect(kept).toMatchObject({ key: KEY, bulks: [{ bulkId: 'b1' }] });

    // A new start while the server is away: the kept list.
    const away = sharingWith(fakeTeam({ teamBulks: () => Promise.reject(new Error('away')) }));
    expect((await away.colleaguesBulks())?.bulks.map((b) => b.bulkId)).toEqual(['b1']);
  });

  it('shares nothing for the Offline sandbox, where each computer has its own service', async () => {
    const teamBulks = vi.fn(() => Promise.resolve([bulk()]));
    const sharing = sharingWith(fakeTeam({ teamBulks }), {
      id: 'offline',
      baseUrl: 'http://x',
      emulated: true,
    });
    expect(await sharing.colleaguesBulks()).toBeNull();
    expect(await sharing.shareOneByOne(() => [])).toEqual([]);
    expect(teamBulks).not.toHaveBeenCalled();
  });

  it('publishes this computer’s sent bulks the team does not know yet, then reads the list again', async () => {
    const publishBulk = vi.fn(() => Promise.resolve());
    const teamBulks = vi.fn(() => Promise.resolve([] as TeamBulk[]));
    const sharing = sharingWith(fakeTeam({ teamBulks, publishBulk }));
    const group = {
      id: 'u9',
      environment: 'production',
      createdAt: '2026-11-21T08:00:00.000Z',
      parts: [{ index: 0, totals: [{ currencyCode: 'USD', count: 2, amount: 200 }] }],
      approval: { state: 'sent', server: 'db.example.org:5432/desk' },
    } as unknown as LedgerGroupSummary;
    const intent = { serviceId: 'b9', part: 0, state: 'PROCESSED' } as unknown as LedgerIntent;
    const local = { bulks: [{ bulkId: 'b9', group, intent }] } as unknown as LedgerSummaryView;
    const partials = vi.fn(() => Promise.resolve(new Map()));
    await sharing.publishBulks(() => Promise.resolve({ local, environment: 'production', partials }));
    expect(publishBulk).toHaveBeenCalledWith(
      expect.objectContaining({ bulkId: 'b9', uploadId: 'u9', environmentKey: KEY, state: 'PROCESSED' }),
    );
    // Read before (fresh) and after publishing.
    expect(teamBulks).toHaveBeenCalledTimes(2);

    // With the server away nothing is tried.
    publishBulk.mockClear();
    const away = sharingWith(fakeTeam({ teamBulks: () => Promise.reject(new Error('away')), publishBulk }));
    await away.publishBulks(() => Promise.resolve({ local, environment: 'production', partials }));
    expect(publishBulk).not.toHaveBeenCalled();
  });

  it('publishes this computer’s donations sent one by one that the team lacks, and answers the team’s', async () => {
    const theirs = {
      donationId: 'd2',
      kind: 'single' as const,
      sentAt: 'x',
      sentBy: 'bob',
      computer: 'bob-pc',
    };
    const publishOne = vi.fn(() => Promise.resolve());
    const sharing = sharingWith(fakeTeam({ sentOneByOne: () => Promise.resolve([theirs]), publishOne }));
    const shared = await sharing.shareOneByOne(() => [
      { id: 'd1', firstSeenAt: '2026-11-02T00:00:00.000Z', kind: 'replaces' },
      { id: 'd2', firstSeenAt: '2026-11-03T00:00:00.000Z', kind: 'single' },
    ]);
    expect(shared).toEqual([theirs]);
    expect(publishOne).toHaveBeenCalledTimes(1);
    expect(publishOne).toHaveBeenCalledWith(KEY, 'd1', 'replaces', '2026-11-02T00:00:00.000Z');
  });

  it('shows colleagues’ corrections in progress or done, and none when the team is slow or away', async () => {
    const corrections = vi.fn(() =>
      Promise.resolve(
        new Map([
          ['d1', holder({ donationId: 'd1' })],
          ['d2', holder({ donationId: 'd2', state: 'abandoned' })],
        ]),
      ),
    );
    const sharing = sharingWith(fakeTeam({ corrections }));
    const found = await sharing.correctionsElsewhere(['d1', 'd2']);
    expect([...found.keys()]).toEqual(['d1']);
    expect(found.get('d1')).toMatchObject({ by: 'alice', state: 'in-progress' });
    expect(await sharing.correctionsElsewhere([])).toEqual(new Map());
    expect(corrections).toHaveBeenCalledTimes(1);

    vi.useFakeTimers();
    const slow = sharingWith(fakeTeam({ corrections: () => new Promise(() => undefined) }));
    const answer = slow.correctionsElsewhere(['d1']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await answer).toEqual(new Map());
  });

  it('takes in what colleagues closed: their replacements, and their dismissals of the rest', async () => {
    const dismissals = vi.fn((_key: string, ids: readonly string[]) =>
      Promise.resolve(new Map(ids.map((id) => [id, dismissal(id, 'bob')]))),
    );
    const sharing = sharingWith(
      fakeTeam({
        corrections: () =>
          Promise.resolve(
            new Map([
              ['d1', holder({ donationId: 'd1', state: 'done', replacementId: 'r1' })],
              ['d2', holder({ donationId: 'd2' })],
            ]),
          ),
        dismissals,
      }),
    );
    const closed = await sharing.closedElsewhere(() => ['d1', 'd2', 'd3']);
    expect(closed.replaced).toEqual([{ donationId: 'd1', replacementId: 'r1', by: 'alice' }]);
    expect(closed.dismissed).toEqual([
      { donationId: 'd3', at: '2026-11-25T11:00:00.000Z', reason: 'Closed', by: 'bob' },
    ]);
    expect(dismissals).toHaveBeenCalledWith(KEY, ['d3']);
  });

  it('dismisses for the team, saying who when a colleague dismissed first', async () => {
    const mine = sharingWith(
      fakeTeam({
        corrections: () => Promise.resolve(new Map()),
        dismiss: (_key, id) => Promise.resolve(dismissal(id, 'carol')),
        who: () => Promise.resolve({ login: 'carol', roles: [], server: 's' }),
      }),
    );
    expect(await mine.dismiss('d1', 'Closed')).toEqual({
      at: '2026-11-25T11:00:00.000Z',
      reason: 'Closed',
      by: null,
    });
    const theirs = sharingWith(
      fakeTeam({
        corrections: () => Promise.resolve(new Map()),
        dismiss: (_key, id) => Promise.resolve(dismissal(id, 'bob')),
        who: () => Promise.resolve({ login: 'carol', roles: [], server: 's' }),
      }),
    );
    expect((await theirs.dismiss('d1', 'Closed'))?.by).toBe('bob');
  });

  it('refuses a dismissal while a colleague corrects the donation, or while the team cannot be reached', async () => {
    const correcting = sharingWith(
      fakeTeam({ corrections: () => Promise.resolve(new Map([['d1', holder({})]])), dismiss: vi.fn() }),
    );
    await expect(correcting.dismiss('d1', 'Closed')).rejects.toMatchObject({ code: 'CORRECTION_ELSEWHERE' });
    const away = sharingWith(
      fakeTeam({
        corrections: () => Promise.reject(new Error('away')),
        dismiss: () => Promise.reject(new Error('connection refused')),
      }),
    );
    await expect(away.dismiss('d1', 'Closed')).rejects.toMatchObject({ code: 'TEAM_UNREACHABLE' });
    const refused = sharingWith(
      fakeTeam({
        corrections: () => Promise.resolve(new Map()),
        dismiss: () => Promise.reject(new DeskFailure('TEAM_REFUSED', 'Being corrected by bob.')),
      }),
    );
    await expect(refused.dismiss('d1', 'Closed')).rejects.toMatchObject({
      code: 'CORRECTION_ELSEWHERE',
      message: 'Being corrected by bob.',
    });
  });

  it('finishes the claims of replacements seen, and stops asking once the server is away', async () => {
    const finishCorrection = vi.fn((_key: string, id: string) =>
      id === 'd1'
        ? Promise.reject(new DeskFailure('TEAM_REFUSED', 'Not yours.'))
        : id === 'd2'
          ? Promise.reject(new Error('away'))
          : Promise.resolve(holder({})),
    );
    const sharing = sharingWith(fakeTeam({ finishCorrection }));
    await sharing.finishCorrections([
      ['d1', 'r1'],
      ['d2', 'r2'],
      ['d3', 'r3'],
    ]);
    expect(finishCorrection.mock.calls.map((c) => c[1])).toEqual(['d1', 'd2']);
  });

  it('claims corrections for an upload and guards one sent on its own', async () => {
    const claimCorrection = vi.fn(() =>
      Promise.resolve({ granted: true, holder: holder({ by: 'carol', how: 'upload', uploadId: 'u1' }) }),
    );
    const sharing = sharingWith(fakeTeam({ claimCorrection }));
    await sharing.claimForUpload('u1', [{ rowKey: 0, rowNumber: 2, donationId: 'd1' }]);
    expect(claimCorrection).toHaveBeenCalledWith(KEY, 'd1', { how: 'upload', uploadId: 'u1' });
    const guard = await sharing.correctionGuard();
    await guard?.claim('d2');
    expect(claimCorrection).toHaveBeenLastCalledWith(KEY, 'd2', { how: 'single' });
  });
});
