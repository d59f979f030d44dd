import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerStore } from '../../../electron/services/ledger/ledgerStore';
import type { LedgerGroup, LedgerIntent } from '../../../electron/services/ledger/ledgerShapes';
import type { ServiceClient } from '../../../electron/services/api/serviceClient';
import { bulkDonations, driveToEnd, openDesk, startEmu, type Emu } from './harness';
import { recordedUpload, serviceClientOf } from './recordedUpload';

/*
 * Each crash point of the sender, written into the ledger exactly as a killed process leaves it,
 * then a new desk started on it: resume must finish the upload with every donation exactly once.
 */

let h: Emu;
let client: ServiceClient;
beforeAll(async () => {
  h = await startEmu();
  client = serviceClientOf(h);
});
afterAll(async () => {
  await h.close();
});

let serial = 0;

/** A recorded upload of `count` donations, as the engine writes it just before sending. */
async function recordedGroup(ledgerDir: string, count: number): Promise<{ group: LedgerGroup; gz: Buffer }> {
  serial++;
  const tag = serial;
  return recordedUpload(h, ledgerDir, {
    id: `group-${tag}`,
    workspaceName: 'Crash',
    count,
    metadata: (i) => ({ ddRef: `crash${tag}:${i + 1}` }),
  });
}

function attempt(group: LedgerGroup, state: LedgerIntent['state'], serviceId: string | null): LedgerIntent {
  const at = new Date().toISOString();
  return {
    attemptId: `local-${group.id}-${state}`,
    serviceId,
    groupId: group.id,
    part: 0,
    state,
    createdAt: at,
    updatedAt: at,
    expiresAt: null,
    timeline: [{ state, at }],
    counts: {},
    error: null,
    donationRowKeys: null,
    correctedByUpload: null,
  };
}

async function crashThenResume(
  leave: (ledger: LedgerStore, group: LedgerGroup, gz: Buffer) => Promise<void>,
): Promise<{ states: string[]; perRef: number[] }> {
  const ledgerDir = join(h.dataDir, 'uploads');
  const ledger = await LedgerStore.open(ledgerDir);
  const { group, gz } = await recordedGroup(ledgerDir, 7);
  await ledger.putGroup(group);
  await leave(ledger, group, gz);
  await ledger.close();

  const desk = await openDesk(h, { env: { DONATION_DESK_UPLOAD_GRACE_MS: '300' } });
  try {
    let view = (await desk.call('upload.list', {})).find((u) => u.uploadId === group.id);
    for (let i = 0; i < 100 && view?.state === 'sending'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = (await desk.call('upload.list', {})).find((u) => u.uploadId === group.id);
    }
    const live = view?.intents.filter((i) => i.state !== 'abandoned') ?? [];
    expect(live).toHaveLength(1);
    await driveToEnd(h, desk, live[0]?.intentId as string);
    view = (await desk.call('upload.list', {})).find((u) => u.uploadId === group.id);
    const refs = new Map<string, number>();
    for (const intent of view?.intents ?? []) {
      if (!intent.serviceId) continue;
      for (const d of await bulkDonations(h.emu, intent.serviceId)) {
        const ref = d.attributes.metadata?.ddRef ?? '?';
        refs.set(ref, (refs.get(ref) ?? 0) + 1);
      }
    }
    expect(refs.size).toBe(7);
    return { states: view?.intents.map((i) => i.state) ?? [], perRef: [...refs.values()] };
  } finally {
    await desk.desk.close();
  }
}

describe('resume after a crash at each point of sending', () => {
  it('recorded, nothing asked yet: creates an intent and sends', async () => {
    const r = await crashThenResume(async () => undefined);
    expect(r.states).toEqual(['PROCESSED']);
    expect(r.perRef.every((n) => n === 1)).toBe(true);
  });

  it('intent requested, answer never recorded: abandons the attempt and uses a new intent', async () => {
    const r = await crashThenResume(async (ledger, group) => {
      await client.createIntent(); // the service made one; the crash lost its answer
      await ledger.putIntent(attempt(group, 'creating', null));
    });
    expect(r.states).toEqual(['abandoned', 'PROCESSED']);
    expect(r.perRef.every((n) => n === 1)).toBe(true);
  });

  it('intent created, upload not begun: abandons it (its signed form was never kept) and uses a new one', async () => {
    const r = await crashThenResume(async (ledger, group) => {
      const intent = await client.createIntent();
      await ledger.putIntent(attempt(group, 'pending', intent.id));
    });
    expect(r.states).toEqual(['abandoned', 'PROCESSED']);
    expect(r.perRef.every((n) => n === 1)).toBe(true);
  });

  it('killed mid-upload after the file landed: follows that intent and sends nothing again', async () => {
    const r = await crashThenResume(async (ledger, group, gz) => {
      const intent = await client.createIntent();
      await ledger.putIntent(attempt(group, 'uploading', intent.id));
      const landed = await client.uploadFile(
        intent.attributes.url as string,
        intent.attributes.fields ?? {},
        gz,
      );
      expect(landed.kind).toBe('uploaded');
    });
    expect(r.states).toEqual(['PROCESSED']);
    expect(r.perRef.every((n) => n === 1)).toBe(true);
  });

  it('killed mid-upload before the file landed: waits the grace, abandons, sends once with a new intent', async () => {
    const r = await crashThenResume(async (ledger, group) => {
      const intent = await client.createIntent();
      await ledger.putIntent(attempt(group, 'uploading', intent.id));
    });
    expect(r.states).toEqual(['abandoned', 'PROCESSED']);
    expect(r.perRef.every((n) => n === 1)).toBe(true);
  });
});
