import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validDonation } from '../../../../shared/donation/testFixtures';
import type { UploadBasics } from '../../upload/basics';
import { gzipBulkFile } from '../../upload/compress';
import { testBasics, testGroup } from '../../upload/testFixtures';
import type { TeamDatabase, TeamUpload, TeamUploadFile } from '../teamTypes';
import { environmentKeyOf } from '../teamUploads';
import { storeFiles, takeOver } from './uploadFiles';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function basics(): Promise<UploadBasics> {
  const t = await testBasics();
  close = t.close;
  return t.basics;
}

function approved(change: Partial<TeamUpload> = {}): TeamUpload {
  return {
    id: 'u1',
    workspaceName: 'March gifts',
    environment: 'sandbox',
    environmentKey: environmentKeyOf({ id: 'sandbox', baseUrl: 'https://api.example.org', emulated: false }),
    computer: 'alice-pc',
    fileSha256: 'x',
    rows: 2,
    totals: [],
    review: { month: '2026-03', largestRecipients: [], alreadyOut: 0, warnings: [] },
    preparer: 'alice',
    state: 'approved',
    createdAt: '2026-03-10T12:00:00.000Z',
    decidedBy: 'bob',
    decidedAt: '2026-03-10T13:00:00.000Z',
    reason: null,
    sentBy: null,
    sentAt: null,
    sender: 'approver',
    sentFrom: null,
    ...change,
  };
}

function teamWith(files: TeamUploadFile[]) {
  return {
    server: 'db.example.org:5432/desk',
    storeUploadFile: vi.fn(async () => 'sha'),
    fetchUploadFile: vi.fn(async () => files),
  } as unknown as TeamDatabase;
}

describe('the files of an upload the approver sends', () => {
  it('stores each part once per run, and refuses a file changed on disk', async () => {
    const ctx = await basics();
    const { gz, sha256 } = await gzipBulkFile([validDonation()]);
    await mkdir(join(ctx.ledger.dir, 'files'), { recursive: true });
    await writeFile(join(ctx.ledger.dir, 'files', 'u1-0.json.gz'), gz);
    const team = teamWith([]);
    const stored = new Set<string>();
    const group = testGroup('u1');
    const changed = { ...group, parts: group.parts.map((p) => ({ ...p, fileHash: 'b'.repeat(64) })) };
    await expect(storeFiles(ctx, team, changed, stored)).rejects.toMatchObject({
      code: 'LEDGER_FILE_MISSING',
    });
    const good = { ...group, parts: group.parts.map((p) => ({ ...p, fileHash: sha256 })) };
    await storeFiles(ctx, team, good, stored);
    await storeFiles(ctx, team, good, stored);
    expect(team.storeUploadFile).toHaveBeenCalledTimes(1);
    expect(stored).toEqual(new Set(['u1']));
  });

  it('takes over the exact approved file as an upload of this ledger, without a workspace', async () => {
    const ctx = await basics();
    const { gz, sha256 } = await gzipBulkFile([validDonation(), validDonation({ metadata: { n: '2' } })]);
    const team = teamWith([{ part: 0, bytes: gz, sha256 }]);
    const group = await takeOver(ctx, team, approved({ fileSha256: sha256 }));
    expect(group).toMatchObject({ id: 'u1', workspaceId: '', environment: 'sandbox' });
    expect(group.parts[0]?.rowKeys).toEqual([1, 2]);
    expect(group.approval).toMatchObject({ state: 'approved', sender: 'approver', sendsHere: true });
    expect(ctx.ledger.group('u1')).toEqual(group);
  });

  it('refuses what it must not send: not the approver’s, another service, another file', async () => {
    const ctx = await basics();
    const { gz, sha256 } = await gzipBulkFile([validDonation()]);
    const team = teamWith([{ part: 0, bytes: gz, sha256 }]);
    await expect(takeOver(ctx, team, approved({ sender: 'preparer' }))).rejects.toMatchObject({
      code: 'NOT_TO_SEND',
    });
    await expect(takeOver(ctx, team, approved({ environmentKey: 'production|x' }))).rejects.toMatchObject({
      code: 'WRONG_ENVIRONMENT',
    });
    await expect(takeOver(ctx, team, approved({ fileSha256: 'c'.repeat(64) }))).rejects.toMatchObject({
      code: 'FILE_MISMATCH',
    });
    expect(ctx.ledger.allGroups()).toEqual([]);
  });
});
