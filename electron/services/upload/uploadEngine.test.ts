import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import type { LedgerGroup } from '../ledger/ledgerShapes';
import { WorkspaceStore } from '../workspaces/workspaceStore';
import type { GateAnswer, SendGate, SendGateHost, SendGates, UploadSubmission } from './sendGate';
import type { UploadBasics } from './basics';
import { validateWorkspace } from './prepare';
import { testApproval, testBasics } from './testFixtures';
import { UploadEngine } from './uploadEngine';

const HEADERS = ['Charity ID', 'Amount', 'Currency', 'Employee'];
const MAPPING = {
  template: {
    columns: {
      'Charity ID': 'recipientId',
      Amount: 'amount',
      Currency: 'currencyCode',
      Employee: 'metadata.employee',
    },
    amountUnit: 'major',
  },
  numberStyle: 'dot-decimal',
  reference: { enabled: true, key: 'ddRef' },
};
const ROWS = [
  { key: 1, rowNumber: 2, cells: ['840-123456789', '10.00', 'USD', 'E1'] },
  { key: 2, rowNumber: 3, cells: ['840-123456789', '20.00', 'USD', 'E2'] },
];

/** A gate that records what it hears and answers `verdict` before sending (never 'go': no service here). */
function fakeGate(verdict: GateAnswer = { verdict: 'wait' }) {
  const submission: UploadSubmission = {
    approval: vi.fn(() => testApproval('submitting')),
    notRecorded: vi.fn(async () => undefined),
    submit: vi.fn(async (group: LedgerGroup) => ({ ...group, approval: testApproval('waiting') })),
  };
  const gate: SendGate = {
    sentElsewhere: vi.fn(async () => new Map()),
    begin: vi.fn(() => submission),
    beforeSend: vi.fn(async () => verdict),
    intentSaved: vi.fn(),
    mayFollow: vi.fn(async () => true),
    followed: vi.fn(),
    edited: vi.fn(async (group: LedgerGroup) => group),
    giveBackClaims: vi.fn(async () => undefined),
    nothingSent: vi.fn(async () => undefined),
    takeOverApproved: vi.fn(async () => undefined),
    toSend: vi.fn(async () => {
      throw new DeskFailure('TEAM_ALONE', 'alone');
    }),
  };
  let host: SendGateHost | null = null;
  const gates: SendGates = {
    inForce: () => true,
    anythingToTakeOver: async () => false,
    voidApprovals: async () => undefined,
    open: (h) => {
      host = h;
      return gate;
    },
  };
  return { gate, gates, submission, host: () => host };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function engineWith(gates: SendGates, overrides: Partial<UploadBasics> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'engine-unit-'));
  const workspaces = new WorkspaceStore(join(dir, 'workspaces'));
  const meta = await workspaces.create({
    name: 'March gifts',
    source: {
      fileName: 'gifts.xlsx',
      format: 'xlsx',
      sheet: 'Sheet1',
      headerRow: 1,
      headerRowCount: 1,
      totalsRow: null,
      skippedBlankRows: 0,
      warnings: [],
    },
    headers: HEADERS,
    rows: ROWS,
    mapping: MAPPING as Record<string, unknown>,
  });
  const t = await testBasics({ workspaces, ...overrides });
  const engine = new UploadEngine(t.basics, gates);
  cleanups.push(async () => {
    await engine.close();
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { engine, workspaces, ledger: t.basics.ledger, workspaceId: meta.id };
}

describe('UploadEngine', () => {
  it('records an upload, submits it through the gate and holds it while the gate says wait', async () => {
    const { gate, gates, submission } = fakeGate({ verdict: 'wait', problem: 'Not connected.' });
    const { engine, ledger, workspaceId } = await engineWith(gates);
    const started = await engine.start({ workspaceId });
    expect(started.problems).toEqual(['Not connected.']);
    const group = ledger.group(started.uploadId) as LedgerGroup;
    expect(group.parts).toHaveLength(1);
    expect(group.parts[0]?.rowKeys).toEqual([1, 2]);
    expect(group.approval?.state).toBe('submitting');
    expect(submission.approval).toHaveBeenCalledWith([group.parts[0]?.fileHash]);
    const [submitted, rows] = vi.mocked(submission.submit).mock.calls[0] ?? [];
    expect(submitted?.approval?.state).toBe('submitting');
    expect(rows?.rows).toHaveLength(2);
    expect(rows?.confirmed).toEqual(new Set());
    expect(rows?.alreadyOut).toBe(0);
    expect(gate.beforeSend).toHaveBeenCalledTimes(1);
    expect(ledger.intentsOf(group.id)).toEqual([]);
  });

  it('refuses rows a colleague sent unless confirmed, and tells the gate which were', async () => {
    const { gate, gates, submission } = fakeGate();
    const { engine, workspaces, ledger, workspaceId } = await engineWith(gates);
    const preview = await engine.preview({ workspaceId });
    const first = (await validateWorkspace(await workspaces.read(workspaceId))).ready[0];
    vi.mocked(gate.sentElsewhere).mockResolvedValue(
      new Map([
        [
          first?.fingerprint ?? '',
          { uploadId: 'theirs', sentBy: 'bob', computer: 'bob-pc', at: '2026-03-01T00:00:00Z' },
        ],
      ]),
    );
    expect(preview.duplicates).toEqual([]);
    const flagged = await engine.preview({ workspaceId });
    expect(flagged.duplicates).toEqual([
      expect.objectContaining({ rowKey: 1, sentBy: 'bob', uploadId: 'theirs', computer: 'bob-pc' }),
    ]);
    // "Send only the new rows" sends row 3 alone: its count and amount, not the whole file's.
    expect(preview.onlyNew).toBeNull();
    expect(flagged.totals).toEqual([{ currencyCode: 'USD', count: 2, amount: 3000 }]);
    expect(flagged.onlyNew).toEqual({
      valid: 1,
      totals: [{ currencyCode: 'USD', count: 1, amount: 2000 }],
      parts: 1,
    });
    const refused = await engine.start({ workspaceId }).catch((e: unknown) => e);
    expect((refused as DeskFailure).code).toBe('DUPLICATES');
    expect(ledger.allGroups()).toEqual([]);
    await engine.start({ workspaceId, confirmDuplicates: [1] });
    const [, rows] = vi.mocked(submission.submit).mock.calls[0] ?? [];
    expect(rows?.confirmed).toEqual(new Set([first?.fingerprint]));
    expect(rows?.alreadyOut).toBe(1);
  });

  it('previews what it knows when colleagues cannot be asked, but does not upload', async () => {
    const { gate, gates } = fakeGate();
    const { engine, workspaceId } = await engineWith(gates);
    vi.mocked(gate.sentElsewhere).mockRejectedValue(new DeskFailure('TEAM_UNAVAILABLE', 'away'));
    expect((await engine.preview({ workspaceId })).valid).toBe(2);
    const failure = await engine.start({ workspaceId }).catch((e: unknown) => e);
    expect((failure as DeskFailure).code).toBe('TEAM_UNAVAILABLE');
  });

  it('gives back the claims of an upload the gate stopped', async () => {
    const { gate, gates, host } = fakeGate();
    vi.mocked(gate.beforeSend).mockImplementation(async (group) => {
      const stopped = { at: 'now', reason: 'Approval rejected by bob' };
      await host()?.ctx.ledger.putGroup({ ...group, stopped });
      return { verdict: 'stopped' };
    });
    const { engine, workspaceId } = await engineWith(gates);
    const started = await engine.start({ workspaceId });
    expect(started.problems).toEqual(['Approval rejected by bob']);
    expect(gate.giveBackClaims).toHaveBeenCalledWith([started.uploadId]);
  });

  it('voids and stops a waiting upload when its workspace is edited', async () => {
    const { gate, gates } = fakeGate();
    const { engine, ledger, workspaceId } = await engineWith(gates);
    const { uploadId } = await engine.start({ workspaceId });
    await engine.workspaceEdited(workspaceId, 7);
    expect(gate.edited).toHaveBeenCalledWith(
      expect.objectContaining({ id: uploadId }),
      expect.stringContaining('version 7'),
    );
    expect(ledger.group(uploadId)?.stopped?.reason).toMatch(/^Approval void: the workspace was edited/);
    expect(gate.giveBackClaims).toHaveBeenLastCalledWith([uploadId]);
  });

  it('sends an approved upload the gate hands over, and resumes through the gate', async () => {
    const { gate, gates } = fakeGate();
    const { engine } = await engineWith(gates);
    const refused = await engine.sendApproved('theirs').catch((e: unknown) => e);
    expect((refused as DeskFailure).code).toBe('TEAM_ALONE');
    expect(gate.toSend).toHaveBeenCalledWith('theirs');
    await engine.resume();
    expect(gate.giveBackClaims).toHaveBeenCalledWith(null);
    expect(gate.takeOverApproved).toHaveBeenCalledTimes(1);
    expect(engine.settled()).toBe(true);
  });

  it('sends at once, with no submission, when the gate has none to begin', async () => {
    const { gate, gates } = fakeGate();
    vi.mocked(gate.begin).mockReturnValue(null);
    const sent = vi.fn();
    // No approval: the gate is not asked; the part goes to the sender (here a service that refuses).
    const client = {
      createIntent: async () => {
        sent();
        throw new DeskFailure('UPLOAD_REJECTED', 'The upload host refused the file.');
      },
    } as unknown as UploadBasics['client'];
    const { engine, ledger, workspaceId } = await engineWith(gates, { client });
    const started = await engine.start({ workspaceId });
    expect(gate.beforeSend).not.toHaveBeenCalled();
    expect(ledger.group(started.uploadId)?.approval).toBeNull();
    expect(sent).toHaveBeenCalled();
  });
});
