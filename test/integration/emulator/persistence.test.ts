import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../emulator/server';
import {
  getToken,
  bulkFile,
  bulkStatus,
  createIntent,
  donation,
  info,
  listAll,
  startHarness,
  upload,
} from './helpers';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
  dirs.push(dir);
  return dir;
}

describe('state in --data-dir', () => {
  it('survives a restart: donations, bulks, error files, locations, tokens and the clock', async () => {
    const dataDir = tempDir();
    const first = await startHarness({ dataDir });
    const samples = await info(first);
    const cause = samples.causesInGoodStanding[0]?.id ?? '';
    const single = await first.api('POST', '/donations', { data: donation(cause, 4321) });
    const processed = await createIntent(first);
    await upload(processed, bulkFile([donation(cause, 1), donation(cause, 2), donation(cause, 3)]));
    const broken = await createIntent(first);
    const original = gzipSync('not json');
    await upload(broken, original);
    await first.emu.advance(3600);
    // This one is uploaded but not yet validated when the emulator stops.
    const pending = await createIntent(first);
    await upload(pending, bulkFile([donation(cause, 7)]));
    const location = await first.api('POST', '/locations/batch', {
      'atomic:operations': [
        {
          op: 'add',
          data: {
            type: 'location',
            attributes: {
              name: 'HQ',
              referenceId: 'HQ-1',
              address: { addressLine: '1 Main St', country: 'US' },
            },
          },
        },
      ],
    });
    expect(location.status).toBe(200);
    const page = await first.api('GET', '/donations?page[size]=2');
    const stoppedAt = first.emu.now().getTime();
    await first.emu.close();

    const files = readdirSync(dataDir);
    expect(files).toContain('state.json');
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(() => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'))).not.toThrow();

    const second = await startEmulator({ dataDir, timeScale: 0, seed: 42, quiet: true });
    try {
      expect(second.now().getTime()).toBeGreaterThanOrEqual(stoppedAt);
      expect(second.now().getTime() - stoppedAt).toBeLessThan(60_000);
      let token = first.token;
      const call = (path: string): Promise<Response> =>
        fetch(`${second.apiBaseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      // The token from before the restart is still valid: the signing key is part of the state.
      const got = await call(`/donations/${single.body.data.id}`);
      expect(got.status).toBe(200);
      expect(
        ((await got.json()) as { data: { attributes: { funds: { amount: number } } } }).data.attributes.funds
          .amount,
      ).toBe(4321);
      const bulk = (await (await call(`/donations/bulk-intents/${processed.id}`)).json()) as {
        data: { attributes: { status: string }; links: { related: { meta: unknown } } };
      };
      expect(bulk.data.attributes.status).toBe('PROCESSED');
      expect(bulk.data.links.related.meta).toEqual({ uploaded: 3, accepted: 3 });
      const errored = (await (await call(`/donations/bulk-intents/${broken.id}`)).json()) as {
        data: { attributes: { errors: { links: { href: string } } } };
      };
      const file = await fetch(errored.data.attributes.errors.links.href);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(original)).toBe(true);
      const next = (page.body.links.next as string).replace(/^http:\/\/127\.0\.0\.1:\d+/, '');
      const rest = (await (await call(next)).json()) as { data: Array<{ id: string }> };
      expect(rest.data.length).toBe(2);
      const locations = (await (await call('/locations')).json()) as {
        data: Array<{ attributes: { referenceId: string } }>;
      };
      expect(locations.data.map((l) => l.attributes.referenceId)).toEqual(['HQ-1']);
      // The upload from before the restart is validated and processed after it.
      await second.advance(3600);
      token = await getToken(second);
      const resumed = (await (await call(`/donations/bulk-intents/${pending.id}`)).json()) as {
        data: { attributes: { status: string } };
      };
      expect(resumed.data.attributes.status).toBe('PROCESSED');
    } finally {
      await second.close();
    }
  });

  it('resumes a bulk that was VALIDATED when the emulator stopped', async () => {
    const dataDir = tempDir();
    const first = await startHarness({ dataDir });
    const cause = (await info(first)).causesInGoodStanding[0]?.id ?? '';
    const intent = await createIntent(first);
    await upload(intent, bulkFile([donation(cause, 1), donation(cause, 2)]));
    for (let i = 0; i < 40; i++) {
      await first.emu.advance(5);
      if ((await bulkStatus(first, intent.id)).body.data.attributes.status === 'VALIDATED') break;
    }
    expect((await bulkStatus(first, intent.id)).body.data.attributes.status).toBe('VALIDATED');
    await first.emu.close();
    const second = await startHarness({ dataDir });
    try {
      await second.emu.advance(3600);
      expect((await bulkStatus(second, intent.id)).body.data.attributes.status).toBe('PROCESSED');
      expect(await listAll(second, `filter[bulk]=${intent.id}`)).toHaveLength(2);
    } finally {
      await second.emu.close();
    }
  });

  it('refuses a data dir made with another seed', async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir, timeScale: 0, seed: 1, quiet: true });
    await first.close();
    await expect(startEmulator({ dataDir, timeScale: 0, seed: 2, quiet: true })).rejects.toThrow(/seed/);
  });
});

describe('donation log', () => {
  it('ignores a torn last line, rebuilds the budget and never reuses ids', async () => {
    const dataDir = tempDir();
    const first = await startHarness({ dataDir });
    const cause = (await info(first)).causesInGoodStanding[0]?.id ?? '';
    await first.control('faults', { budgetMinorUnits: 10_000 });
    const kept = await first.api('POST', '/donations', { data: donation(cause, 9_000) });
    await first.emu.close();
    // A crash in the middle of an append leaves half a line behind.
    appendFileSync(join(dataDir, 'donations.log'), '[99,"torn');

    const second = await startHarness({ dataDir });
    try {
      expect((await second.api('GET', `/donations/${kept.body.data.id}`)).status).toBe(200);
      const over = await second.api('POST', '/donations', { data: donation(cause, 2_000) });
      expect(over.body.data.id).not.toBe(kept.body.data.id);
      await second.emu.advance(600);
      const state = (await second.api('GET', `/donations/${over.body.data.id}`)).body.data.attributes.state;
      expect(state.processingStatus).toBe('DECLINED');
      expect(state.errors[0].code).toBe('PROGRAM_BUDGET_EXCEEDED');
    } finally {
      await second.emu.close();
    }
    const third = await startHarness({ dataDir });
    try {
      expect((await third.api('GET', '/donations')).body.meta.count).toBe(2);
    } finally {
      await third.emu.close();
    }
  });

  it('reset empties the log for good', async () => {
    const dataDir = tempDir();
    const first = await startHarness({ dataDir });
    const cause = (await info(first)).causesInGoodStanding[0]?.id ?? '';
    await first.api('POST', '/donations', { data: donation(cause, 1) });
    await first.control('reset', {});
    await first.emu.close();
    const second = await startHarness({ dataDir });
    try {
      expect((await second.api('GET', '/donations')).body.meta.count).toBe(0);
    } finally {
      await second.emu.close();
    }
  });
});
