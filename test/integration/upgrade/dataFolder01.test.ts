import { existsSync } from 'node:fs';
import { cp, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, databaseOf } from '../../../electron/services/db/deskDatabase';
import { openDesk, startSandbox, type Desk, type Sandbox } from '../reconcile/harness';

/*
 * A data folder written by version 0.1 (test/fixtures, made by its services against the Offline
 * sandbox) opens in this version with every upload, donation, correction, single donation and
 * location present, its JSON files kept beside as `.pre-sqlite`.
 */

interface LegacyStore {
  lastRefreshAt: string;
  donations: Array<{
    resource: { id: string; attributes: { state: { processingStatus: string } } };
    history: unknown[];
    resolution: unknown;
    replaces: string | null;
    row: unknown;
    firstSeenAt: string;
  }>;
  singles: Array<{ clientRef: string; donationId: string }>;
}

const FIXTURES = join(process.cwd(), 'test', 'fixtures');
let s: Sandbox;
let desk: Desk | null = null;

async function legacy(name: string): Promise<LegacyStore> {
  return JSON.parse(
    await readFile(join(FIXTURES, name, 'reconcile', 'donations-offline.json'), 'utf8'),
  ) as LegacyStore;
}

async function ledgerLines(name: string): Promise<{ groups: Set<string>; intents: Map<string, string> }> {
  const groups = new Set<string>();
  /** By the id the screens show: the service's, else the local attempt's. */
  const intents = new Map<string, string>();
  const folder = join(FIXTURES, name, 'uploads');
  const snapshot = JSON.parse(await readFile(join(folder, 'ledger.json'), 'utf8')) as {
    groups: Array<{ id: string }>;
    intents: Array<{ attemptId: string; serviceId: string | null; state: string }>;
  };
  for (const g of snapshot.groups) groups.add(g.id);
  const byAttempt = new Map<string, { serviceId: string | null; state: string }>();
  for (const i of snapshot.intents) byAttempt.set(i.attemptId, i);
  for (const line of (await readFile(join(folder, 'journal.ndjson'), 'utf8')).split('\n')) {
    if (!line.trim()) continue;
    const parsed = JSON.parse(line) as {
      k: string;
      v: { id: string; attemptId: string; serviceId: string | null; state: string };
    };
    if (parsed.k === 'g') groups.add(parsed.v.id);
    else byAttempt.set(parsed.v.attemptId, parsed.v);
  }
  for (const [attemptId, i] of byAttempt) intents.set(i.serviceId ?? attemptId, i.state);
  return { groups, intents };
}

beforeEach(async () => {
  s = await startSandbox();
});
afterEach(async () => {
  await desk?.runtime.close();
  desk = null;
  closeDatabase(s.dataDir);
  await s.close();
});

describe.each(['data-folder-0.1', 'data-folder-0.1-restarted'])(
  'a data folder of version 0.1 (%s)',
  (name) => {
    it('opens with every upload, donation, correction, single donation and location present', async () => {
      await cp(join(FIXTURES, name), s.dataDir, { recursive: true });
      const store = await legacy(name);
      const ledger = await ledgerLines(name);
      desk = await openDesk(s);

      const uploads = await desk.call('upload.list', {});
      expect(new Set(uploads.map((u) => u.uploadId))).toEqual(ledger.groups);
      const intents = new Map(uploads.flatMap((u) => u.intents.map((i) => [i.intentId, i.state] as const)));
      for (const [attemptId, state] of ledger.intents) expect(intents.get(attemptId)).toBe(state);

      const listed = await desk.call('donations.list', { cached: true });
      expect(listed.lastRefreshAt).toBe(store.lastRefreshAt);
      expect(listed.donations.map((d) => d.id).sort()).toEqual(
        store.donations.map((d) => d.resource.id).sort(),
      );
      for (const before of store.donations) {
        const after = listed.donations.find((d) => d.id === before.resource.id);
        expect(after?.state).toBe(before.resource.attributes.state.processingStatus);
        expect(after?.resolution ?? null).toEqual(before.resolution);
        expect(after?.replaces ?? null).toBe(before.replaces);
      }
      // The kinds of resolution the fixture holds: replaced, dismissed, and a correction whose answer was lost.
      expect(
        listed.donations
          .map((d) => d.resolution?.kind)
          .filter(Boolean)
          .sort(),
      ).toEqual(['dismissed', 'replaced', 'replacing']);
      const db = databaseOf(s.dataDir);
      for (const before of store.donations) {
        const row = db.get<{ history: string; first_seen_at: string; row: string | null }>(
          'SELECT history, first_seen_at, row FROM donation WHERE environment = ? AND id = ?',
          'offline',
          before.resource.id,
        );
        expect(JSON.parse(row?.history ?? 'null')).toEqual(before.history);
        expect(row?.first_seen_at).toBe(before.firstSeenAt);
        expect(row?.row === null ? null : JSON.parse(row?.row ?? 'null')).toEqual(before.row);
      }
      const single = store.singles[0];
      expect(
        db.get('SELECT donation_id FROM single_attempt WHERE client_ref = ?', single?.clientRef ?? ''),
      ).toEqual({ donation_id: single?.donationId });

      const locations = await desk.call('locations.list', {});
      // Listed by name: Boulder, Denver.
      expect(locations.locations.map((l) => l.location.referenceId)).toEqual(['FX-2', 'FX-1']);
      expect(locations.contacts.map((c) => c.emailAddress)).toEqual(['ann.fx@example.com']);
      expect(locations.tags.map((t) => `${t.name}=${t.value}`)).toEqual(['Region=West']);

      for (const file of [
        'uploads/ledger.json',
        'uploads/journal.ndjson',
        'reconcile/donations-offline.json',
        'locations/register.json',
      ]) {
        expect(existsSync(join(s.dataDir, file)), file).toBe(false);
        expect(existsSync(join(s.dataDir, `${file}.pre-sqlite`)), file).toBe(true);
      }
      expect(
        db.all<{ source: string }>('SELECT source FROM imported ORDER BY source').map((r) => r.source),
      ).toEqual(['donations:offline', 'ledger:uploads', 'locations']);
    });
  },
);

it('imports once: files put back after the import (a crash before they were set aside) do not overwrite newer rows', async () => {
  await cp(join(FIXTURES, 'data-folder-0.1'), s.dataDir, { recursive: true });
  desk = await openDesk(s);
  const listed = await desk.call('donations.list', { cached: true });
  const declined = listed.donations.find((d) => d.resolution?.kind === 'replacing');
  // A change made after the upgrade…
  await desk.call('locations.forget', {
    id: (await desk.call('locations.list', {})).locations[0]!.location.id,
  });
  await desk.runtime.close();
  closeDatabase(s.dataDir);
  // …then the old files back in place, as if the process died between the commit and the renames.
  for (const file of [
    'reconcile/donations-offline.json',
    'locations/register.json',
    'uploads/journal.ndjson',
  ]) {
    await rename(join(s.dataDir, `${file}.pre-sqlite`), join(s.dataDir, file));
  }
  desk = await openDesk(s);
  expect((await desk.call('locations.list', {})).locations).toHaveLength(1);
  const again = await desk.call('donations.list', { cached: true });
  expect(again.donations).toHaveLength(listed.donations.length);
  expect(again.donations.find((d) => d.id === declined?.id)?.resolution).toEqual(declined?.resolution);
  expect(existsSync(join(s.dataDir, 'locations', 'register.json'))).toBe(false);
  expect(existsSync(join(s.dataDir, 'reconcile', 'donations-offline.json'))).toBe(false);
});
