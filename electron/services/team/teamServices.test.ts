import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../../test/support/teamCluster';
import { EventBus } from '../core/eventBus';
import { openSettingsFile } from '../settings/keyValueStore';
import { SettingsService } from '../settings/settingsService';
import { NOT_STORED } from './fileReview/storedParts';
import { PgTeamDatabase } from './teamDatabase';
import { createTeamServices, monthBefore, type TeamConnectionLike } from './teamServices';
import type { NewTeamUpload, TeamDatabase } from './teamTypes';

/* The team and approval channels' handlers over PgTeamDatabase on a real cluster, one login per person. */

let team: TeamCluster;
const dbs = new Map<TeamLogin, PgTeamDatabase>();
const closers: Array<() => void> = [];

beforeAll(async () => {
  team = await startTeamCluster();
  for (const login of ['alice', 'bob', 'dave'] as const) {
    dbs.set(login, new PgTeamDatabase({ url: team.urlOf(login), computer: `${login}-laptop` }));
  }
});
afterAll(async () => {
  for (const close of closers) close();
  await Promise.all([...dbs.values()].map((d) => d.close()));
  await team?.stop();
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function connectionOf(db: TeamDatabase | null): TeamConnectionLike {
  return {
    current: () => db,
    status: async () => ({ mode: 'alone' }),
    test: async () => ({ ok: false, server: '', login: null, roles: [], message: '' }),
  };
}

async function servicesFor(login: TeamLogin | null, pollMs = 0) {
  const events = new EventBus();
  const notifications: Array<{ title: string; body: string }> = [];
  const waiting: number[] = [];
  events.subscribe((name, payload) => {
    if (name === 'approvals.changed') waiting.push((payload as EventPayload<'approvals.changed'>).waiting);
  });
  const settings = new SettingsService(openSettingsFile(await mkdtemp(join(tmpdir(), 'desk-team-'))), null);
  const services = createTeamServices({
    connection: connectionOf(login ? dbs.get(login)! : null),
    settings,
    events,
    platform: { mode: 'browser', notify: (title, body) => notifications.push({ title, body }) },
    pollMs,
  });
  closers.push(services.close);
  return { ...services, notifications, waiting };
}

const ctx = { transport: 'test' as const };

async function submitAs(login: TeamLogin, overrides: Partial<NewTeamUpload> = {}): Promise<NewTeamUpload> {
  const id = randomUUID();
  const upload: NewTeamUpload = {
    id,
    workspaceName: 'November gifts',
    environment: 'sandbox',
    environmentKey: `sandbox|${id}`,
    computer: `${login}-laptop`,
    fileSha256: sha(id),
    rows: 3,
    totals: [
      { currencyCode: 'USD', amount: 1_250_00, count: 2 },
      { currencyCode: 'EUR', amount: 300_00, count: 1 },
    ],
    review: {
      month: '2026-11',
      largestRecipients: [{ recipientId: '840-563097462', currencyCode: 'USD', amount: 900_00, count: 1 }],
      alreadyOut: 1,
      warnings: ['Row 4: the e-mail has no domain.'],
    },
    ...overrides,
  };
  await dbs.get(login)!.claimRows(upload.id, upload.environmentKey, [sha(`${id} row`)]);
  await dbs.get(login)!.submit(upload);
  // The exact file goes with every submission (its bytes here: the id, so its SHA-256 is the one declared).
  await dbs.get(login)!.storeUploadFile(upload.id, 0, Buffer.from(id));
  return upload;
}

async function failure(promise: unknown): Promise<DeskFailure> {
  const e = await Promise.resolve(promise).then(
    () => null,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(DeskFailure);
  return e as DeskFailure;
}

describe('monthBefore', () => {
  it('steps back over the turn of the year', () => {
    expect(monthBefore('2026-11')).toBe('2026-10');
    expect(monthBefore('2026-01')).toBe('2025-12');
  });
});

describe('alone', () => {
  it('lists nothing and refuses to review or decide, saying why', async () => {
    const { handlers } = await servicesFor(null);
    expect(await handlers['approvals.list']({}, ctx)).toEqual({ approvals: [] });
    const review = await failure(handlers['approvals.review']({ uploadId: 'x' }, ctx));
    expect(review.code).toBe('TEAM_ALONE');
    expect(review.message).toMatch(/works alone/);
    const decide = await failure(
      handlers['approvals.decide']({ uploadId: 'x', decision: 'approve', fileSha256: sha('x') }, ctx),
    );
    expect(decide.code).toBe('TEAM_ALONE');
  });
});

describe('approvals on a team database', () => {
  it('reviews an upload with the month before, and tells each person whether they may decide', async () => {
    // October, sent: what November is compared with.
    const october = await submitAs('alice', {
      review: { month: '2026-10', largestRecipients: [], alreadyOut: 0, warnings: [] },
      totals: [{ currencyCode: 'USD', amount: 1_000_00, count: 2 }],
    });
    await dbs.get('bob')!.decide(october.id, 'approve', october.fileSha256, null);
    await dbs.get('alice')!.markSent(october.id, october.fileSha256);
    const november = await submitAs('alice');

    const bob = await servicesFor('bob');
    const review = await bob.handlers['approvals.review']({ uploadId: november.id }, ctx);
    expect(review).toMatchObject({
      uploadId: november.id,
      preparer: 'alice',
      computer: 'alice-laptop',
      state: 'waiting',
      rows: 3,
      fileSha256: november.fileSha256,
      alreadyOut: 1,
      warnings: ['Row 4: the e-mail has no domain.'],
      largestRecipients: november.review.largestRecipients,
      canDecide: true,
      whyNot: null,
    });
    expect(review.previousMonth.month).toBe('2026-10');
    expect(review.previousMonth.totals).toEqual([
      expect.objectContaining({ currencyCode: 'USD', amount: 1_000_00 }),
    ]);

    const alice = await servicesFor('alice');
    expect(await alice.handlers['approvals.review']({ uploadId: november.id }, ctx)).toMatchObject({
      canDecide: false,
      whyNot: 'Only a person with the approver role may approve.',
    });
  });

  it('lists waiting uploads first, refuses a rejection without a reason, and approves as the database allows', async () => {
    const upload = await submitAs('dave');
    const bob = await servicesFor('bob');
    const all = await bob.handlers['approvals.list']({ state: 'all' }, ctx);
    const states = all.approvals.map((a) => a.state);
    expect(states.indexOf('sent')).toBeGreaterThan(states.lastIndexOf('waiting'));
    const waiting = await bob.handlers['approvals.list']({}, ctx);
    expect(waiting.approvals.every((a) => a.state === 'waiting')).toBe(true);
    expect(waiting.approvals.map((a) => a.uploadId)).toContain(upload.id);

    const noReason = await failure(
      bob.handlers['approvals.decide'](
        { uploadId: upload.id, decision: 'reject', fileSha256: upload.fileSha256, reason: '  ' },
        ctx,
      ),
    );
    expect(noReason.code).toBe('INVALID_INPUT');
    // A stale file is the database's refusal, passed on in plain words.
    const stale = await failure(
      bob.handlers['approvals.decide'](
        { uploadId: upload.id, decision: 'approve', fileSha256: sha('other') },
        ctx,
      ),
    );
    expect(stale.message).toMatch(/different file/);

    // Its stored file is not a bulk file this computer can read: no approval, whatever it declares.
    const review = await bob.handlers['approvals.review']({ uploadId: upload.id }, ctx);
    const unreadable =
      /^Part 1 of this file is not a compressed file Donation Desk can read\. Do not approve it/;
    expect(review).toMatchObject({
      canDecide: true,
      file: { checked: false, problem: expect.stringMatching(unreadable) },
      approvalBlocked: expect.stringMatching(unreadable),
    });
    expect(review.approvalBlocked).not.toBe(NOT_STORED);
    const blocked = await failure(
      bob.handlers['approvals.decide'](
        { uploadId: upload.id, decision: 'approve', fileSha256: upload.fileSha256 },
        ctx,
      ),
    );
    expect(blocked).toMatchObject({ code: 'APPROVAL_BLOCKED', message: expect.stringMatching(unreadable) });

    const approved = await dbs.get('bob')!.decide(upload.id, 'approve', upload.fileSha256, null);
    expect(approved).toMatchObject({ state: 'approved', decidedBy: 'bob', preparer: 'dave' });
    const after = await bob.handlers['approvals.review']({ uploadId: upload.id }, ctx);
    expect(after.canDecide).toBe(false);
    expect(after.whyNot).toMatch(/approved by bob/);
  });

  it('tells an approver who prepared the upload that another person must approve it', async () => {
    const upload = await submitAs('bob');
    const bob = await servicesFor('bob');
    expect(await bob.handlers['approvals.review']({ uploadId: upload.id }, ctx)).toMatchObject({
      canDecide: false,
      whyNot: 'You prepared this upload; another person must approve it.',
    });
    // The database refuses it anyway (a modified screen would not get further).
    const refused = await failure(
      bob.handlers['approvals.decide'](
        { uploadId: upload.id, decision: 'approve', fileSha256: upload.fileSha256 },
        ctx,
      ),
    );
    expect(refused.message).toMatch(/You prepared this upload/);
  });

  it('notifies an approver of a new waiting upload once, and keeps the count for the side bar', async () => {
    const bob = await servicesFor('bob');
    await bob.pollNow();
    const before = bob.waiting.at(-1)!;
    expect(bob.notifications).toHaveLength(before > 0 ? 1 : 0); // what already waited, in one notification
    const upload = await submitAs('alice', { workspaceName: 'December gifts' });
    await bob.pollNow();
    expect(bob.waiting.at(-1)).toBe(before + 1);
    expect(bob.notifications.at(-1)).toEqual({
      title: 'Upload waiting for your approval',
      body: 'December gifts from alice: $1,250.00, €300.00 in 3 donations. Open Approvals to review it.',
    });
    const told = bob.notifications.length;
    await bob.pollNow();
    expect(bob.notifications).toHaveLength(told);

    // A preparer is not asked to approve.
    const alice = await servicesFor('alice');
    await alice.pollNow();
    await submitAs('dave');
    await alice.pollNow();
    expect(alice.notifications).toEqual([]);
    await dbs.get('bob')!.decide(upload.id, 'reject', upload.fileSha256, 'Wrong month');
  });
});
