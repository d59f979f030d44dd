import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerGroup } from '../../ledger/ledgerShapes';
import type { UploadBasics } from '../../upload/basics';
import type { SendGateHost } from '../../upload/sendGate';
import { SERVICE, testApproval, testBasics, testGroup, testIntent } from '../../upload/testFixtures';
import type { TeamDatabase, TeamUpload } from '../teamTypes';
import { TeamSendGate, teamSendGates } from './teamSendGate';

const SERVER = 'db.example.org:5432/desk';

function teamUpload(state: TeamUpload['state'], change: Partial<TeamUpload> = {}): TeamUpload {
  return {
    id: 'u1',
    workspaceName: 'March gifts',
    environment: SERVICE.id,
    environmentKey: `${SERVICE.id}|${SERVICE.baseUrl}`,
    computer: 'alice-pc',
    fileSha256: 'a'.repeat(64),
    rows: 2,
    totals: [],
    review: { month: '2026-03', largestRecipients: [], alreadyOut: 0, warnings: [] },
    preparer: 'alice',
    state,
    createdAt: '2026-03-10T12:00:00.000Z',
    decidedBy: null,
    decidedAt: null,
    reason: null,
    sentBy: null,
    sentAt: null,
    sender: 'preparer',
    sentFrom: null,
    ...change,
  };
}

/** A team database that answers only what a test sets up. */
function fakeTeam(change: Partial<Record<keyof TeamDatabase, unknown>> = {}) {
  return {
    server: SERVER,
    markSent: vi.fn(async () => teamUpload('sent', { sentBy: 'alice', sentFrom: 'alice-pc' })),
    upload: vi.fn(async () => null),
    voidUpload: vi.fn(async () => teamUpload('void', { reason: 'edited' })),
    claimRows: vi.fn(async () => []),
    submit: vi.fn(async () => teamUpload('waiting')),
    sentElsewhere: vi.fn(async () => new Map()),
    releaseRows: vi.fn(async () => 1),
    publishBulk: vi.fn(async () => undefined),
    uploadCorrections: vi.fn(async () => []),
    giveBackUploadCorrections: vi.fn(async () => []),
    uploadBulks: vi.fn(async () => []),
    uploadsToSend: vi.fn(async () => []),
    lease: vi.fn(async () => false),
    releaseLease: vi.fn(async () => undefined),
    ...change,
  } as unknown as TeamDatabase;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function gateWith(team: TeamDatabase | null) {
  const t = await testBasics();
  cleanups.push(t.close);
  const host: SendGateHost = {
    ctx: t.basics,
    follow: vi.fn(),
    scheduleResume: vi.fn(),
    serially: (work) => work(),
  };
  const gate = new TeamSendGate(host, () => team, 'alice-pc');
  return { gate, host, ledger: t.basics.ledger, notices: t.notices, basics: t.basics as UploadBasics };
}

async function recorded(ledger: UploadBasics['ledger'], group: LedgerGroup): Promise<LedgerGroup> {
  await ledger.putGroup(group);
  return group;
}

describe('TeamSendGate', () => {
  it('answers as the local gate when no team database is in force', async () => {
    const { gate } = await gateWith(null);
    const waiting = testGroup('u1', { approval: testApproval('waiting') });
    const answer = await gate.beforeSend(waiting);
    expect(answer.verdict).toBe('wait');
    expect(answer.problem).toContain(`submitted to the team database ${SERVER}`);
    expect(gate.begin()).toBeNull();
    expect(await gate.sentElsewhere(SERVICE, ['fp-1'])).toEqual(new Map());
    await expect(gate.toSend('u1')).rejects.toMatchObject({ code: 'TEAM_ALONE' });
  });

  it('never lets another team database release an upload', async () => {
    const team = fakeTeam({ server: 'other:5432/desk' });
    const { gate } = await gateWith(team);
    const answer = await gate.beforeSend(testGroup('u1', { approval: testApproval('approved') }));
    expect(answer.verdict).toBe('wait');
    expect(team.markSent).not.toHaveBeenCalled();
  });

  it('goes once the database marks the approved file sent, noting who sent it', async () => {
    const team = fakeTeam();
    const { gate, ledger } = await gateWith(team);
    const group = await recorded(ledger, testGroup('u1', { approval: testApproval('approved') }));
    expect(await gate.beforeSend(group)).toEqual({ verdict: 'go' });
    expect(team.markSent).toHaveBeenCalledWith('u1', 'a'.repeat(64));
    expect(ledger.group('u1')?.approval).toMatchObject({ state: 'sent', sentBy: 'alice', sendsHere: true });
  });

  it('stops a rejected upload with the approver’s reason, and tells the preparer', async () => {
    const team = fakeTeam({
      markSent: vi.fn(async () => Promise.reject(new Error('not approved'))),
      upload: vi.fn(async () => teamUpload('rejected', { decidedBy: 'bob', reason: 'too much' })),
    });
    const { gate, ledger, notices } = await gateWith(team);
    const group = await recorded(ledger, testGroup('u1', { approval: testApproval('waiting') }));
    expect(await gate.beforeSend(group)).toEqual({ verdict: 'stopped' });
    expect(ledger.group('u1')?.stopped?.reason).toBe('Approval rejected by bob: too much');
    expect(notices).toEqual([{ title: 'Upload rejected', body: 'March gifts: rejected by bob: too much' }]);
  });

  it('sends nothing from here when the database says another computer sent it', async () => {
    const team = fakeTeam({
      markSent: vi.fn(async () => Promise.reject(new Error('another file was approved'))),
      upload: vi.fn(async () => teamUpload('sent', { sentBy: 'bob', sentFrom: 'bob-pc' })),
    });
    const { gate, ledger } = await gateWith(team);
    const group = await recorded(ledger, testGroup('u1', { approval: testApproval('waiting') }));
    expect((await gate.beforeSend(group)).verdict).toBe('elsewhere');
    expect(ledger.group('u1')?.stopped).toBeNull();
  });

  it('marks nothing sent, and says why, when the approved bytes are not stored in the team database', async () => {
    const team = fakeTeam({
      upload: vi.fn(async () => teamUpload('approved', { decidedBy: 'bob' })),
      fetchUploadFile: vi.fn(async () => []),
      storeUploadFile: vi.fn(async () => Promise.reject(new Error('gone'))),
    });
    const { gate, ledger } = await gateWith(team);
    const group = await recorded(ledger, testGroup('u1', { approval: testApproval('waiting') }));
    const answer = await gate.beforeSend(group);
    expect(answer.verdict).toBe('wait');
    expect(answer.problem).toMatch(
      /is not stored in the team database, and the file on this computer is not that one: nothing was sent/,
    );
    expect(team.markSent).not.toHaveBeenCalled();
    expect(ledger.group('u1')?.stopped).toBeNull();
  });

  it('records a send that never left as not sent in the team database, noting it here', async () => {
    const team = fakeTeam({
      unmarkSent: vi.fn(async () => teamUpload('void', { reason: 'Not sent: the file changed' })),
    });
    const { gate, ledger } = await gateWith(team);
    const group = await recorded(
      ledger,
      testGroup('u1', {
        approval: testApproval('sent', {
          server: SERVER,
          sendsHere: true,
          sentBy: 'alice',
          sentFrom: 'alice-pc',
        }),
      }),
    );
    await gate.nothingSent(group, 'the file changed');
    expect(team.unmarkSent).toHaveBeenCalledWith('u1', 'the file changed');
    expect(ledger.group('u1')?.approval?.state).toBe('void');
    // Not an upload this computer marked sent: nothing to record.
    await gate.nothingSent(testGroup('u2', { approval: testApproval('approved') }), 'x');
    expect(team.unmarkSent).toHaveBeenCalledTimes(1);
  });

  it('adopts the bulks a colleague sent and follows them from here', async () => {
    const team = fakeTeam({
      upload: vi.fn(async () =>
        teamUpload('sent', { sender: 'approver', sentBy: 'bob', sentFrom: 'bob-pc' }),
      ),
      uploadBulks: vi.fn(async () => [{ bulkId: 'bulk-9', part: 0 }]),
    });
    const { gate, ledger, host } = await gateWith(team);
    const approval = testApproval('approved', { sender: 'approver', sendsHere: false });
    const group = await recorded(ledger, testGroup('u1', { approval }));
    expect(await gate.beforeSend(group)).toEqual({ verdict: 'elsewhere' });
    const [adopted] = ledger.intentsOf('u1');
    expect(adopted).toMatchObject({ attemptId: 'team-bulk-9', serviceId: 'bulk-9', state: 'UPLOADED' });
    expect(adopted?.timeline[0]?.note).toBe('sent by bob from bob-pc');
    expect(host.follow).toHaveBeenCalledWith(adopted);
    expect(host.scheduleResume).not.toHaveBeenCalled();
  });

  it('submits a recorded upload after claiming its rows, or stops it when rows are claimed', async () => {
    const team = fakeTeam();
    const { gate, ledger } = await gateWith(team);
    const submission = gate.begin();
    expect(submission?.approval(['b'.repeat(64)])).toMatchObject({ server: SERVER, state: 'submitting' });
    const group = await recorded(ledger, testGroup('u1', { approval: testApproval('submitting') }));
    const rows = { rows: [], warnings: [], leftOut: 0, confirmed: 'all' as const, alreadyOut: 0 };
    const noted = await submission?.submit(group, rows);
    expect(noted?.approval).toMatchObject({ state: 'waiting', needed: true, sendsHere: true });
    expect(team.submit).toHaveBeenCalledWith(expect.objectContaining({ id: 'u1', computer: 'alice-pc' }));

    const claimed = {
      fingerprint: 'fp-1',
      uploadId: 'u0',
      sentBy: 'bob',
      computer: 'bob-pc',
      at: '2026-03-01',
    };
    vi.mocked(team.claimRows).mockResolvedValue([claimed]);
    const second = await recorded(ledger, testGroup('u2', { approval: testApproval('submitting') }));
    const failure = await gate
      .begin()
      ?.submit(second, rows)
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'DUPLICATES' });
    expect(ledger.group('u2')?.stopped?.reason).toMatch(
      /^Not submitted to the team database: 1 row was already sent/,
    );
  });

  it('gives back the claims of rows a failed bulk did not create, and publishes sent bulks', async () => {
    const team = fakeTeam();
    const { gate } = await gateWith(team);
    const group = testGroup('u1', { approval: testApproval('sent') });
    const before = testIntent('u1', 'PROCESSING');
    gate.intentSaved(group, before, { ...before, state: 'ERROR', donationRowKeys: [1] });
    expect(team.releaseRows).toHaveBeenCalledWith('u1', ['fp-2']);
    await vi.waitFor(() =>
      expect(team.publishBulk).toHaveBeenCalledWith(
        expect.objectContaining({ bulkId: 'bulk-u1', state: 'ERROR' }),
      ),
    );
  });

  it('voids an edited upload’s approval and notes it', async () => {
    const team = fakeTeam();
    const { gate, ledger } = await gateWith(team);
    const group = await recorded(ledger, testGroup('u1', { approval: testApproval('approved') }));
    const noted = await gate.edited(group, 'edited');
    expect(team.voidUpload).toHaveBeenCalledWith('u1', 'edited');
    expect(noted.approval?.state).toBe('void');
  });

  it('follows a bulk only under the team’s lease', async () => {
    const team = fakeTeam();
    const { gate } = await gateWith(team);
    expect(await gate.mayFollow(testIntent('u1', 'UPLOADED'))).toBe(false);
    expect(team.lease).toHaveBeenCalledWith('follow:bulk-u1', expect.stringMatching(/^alice-pc\//), 180_000);
  });

  it('hands over an upload to send only when the team database has it', async () => {
    const team = fakeTeam();
    const { gate, ledger } = await gateWith(team);
    await expect(gate.toSend('nobody')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const group = await recorded(ledger, testGroup('u1', { approval: testApproval('approved') }));
    expect(await gate.toSend('u1')).toEqual(group);
  });
});

describe('teamSendGates', () => {
  it('is in force with a team database, and voids approvals one by one', async () => {
    const team = fakeTeam();
    let current: TeamDatabase | null = null;
    const gates = teamSendGates(() => current, 'alice-pc');
    expect(gates.inForce()).toBe(false);
    expect(await gates.anythingToTakeOver()).toBe(false);
    current = team;
    expect(gates.inForce()).toBe(true);
    await gates.voidApprovals(['u1', 'u2'], 'edited');
    expect(team.voidUpload).toHaveBeenCalledTimes(2);
  });
});
