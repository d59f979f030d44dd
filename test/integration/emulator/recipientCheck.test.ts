import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Harness,
  type Info,
  type Json,
  bulkFile,
  bulkStatus,
  createIntent,
  donation,
  gunzipJson,
  info,
  listAll,
  startHarness,
  upload,
} from './helpers';

/** Uploads these donations and lets the clock run until the bulk has settled. */
async function settle(h: Harness, donations: unknown[]): Promise<Json> {
  const intent = await createIntent(h);
  expect((await upload(intent, bulkFile(donations))).status).toBe(204);
  await h.emu.advance(3600);
  return (await bulkStatus(h, intent.id)).body.data;
}

function recipients(samples: Info): Record<string, string> {
  const [cause, project] = samples.project.split('/') as [string, string];
  return {
    good: samples.causesInGoodStanding[0]?.id ?? '',
    project: samples.project,
    notInGoodStanding: samples.causesNotInGoodStanding[0] ?? '',
    unknownCause: samples.unknownCause,
    unknownProject: `${cause}/${project === 'ZZZZZZZZZZ' ? 'YYYYYYYYYY' : 'ZZZZZZZZZZ'}`,
    unknownPortfolio: 'P-ZZZZZZZZ',
  };
}

describe('recipientCheck: validation (the app’s Offline sandbox)', () => {
  let h: Harness;
  let r: Record<string, string>;
  beforeAll(async () => {
    h = await startHarness({ recipientCheck: 'validation' });
    r = recipients(await info(h));
  });
  afterAll(async () => {
    await h.emu.close();
  });

  it('says so in /_emulator/info', async () => {
    expect((await h.control('info')).body.recipientCheck).toBe('validation');
  });

  it('refuses a bulk file whose recipients are well-shaped but not in the directory, with each on its row', async () => {
    const rows = [
      r.good,
      r.unknownCause,
      r.project,
      r.unknownProject,
      r.notInGoodStanding,
      r.unknownPortfolio,
    ];
    const data = await settle(
      h,
      rows.map((id, i) => donation(id as string, 100 + i, { metadata: { row: String(i + 1) } })),
    );
    expect(data.attributes.status).toBe('ERROR');
    expect(data.attributes.errors[0].code).toBe('INVALID_BULK_DONATIONS');
    expect(data.links.related.meta).toEqual({ uploaded: 6, invalid: 3 });
    const file = gunzipJson(await (await fetch(data.attributes.errors[0].links.href)).arrayBuffer()) as {
      data: Json[];
    };
    expect(file.data.map((d) => d.attributes.metadata.row)).toEqual(['2', '4', '6']);
    expect(file.data.map((d) => d.errors)).toEqual(
      [1, 3, 5].map((index) => [
        expect.objectContaining({
          status: '422',
          code: 'RECIPIENT_NOT_FOUND',
          source: { pointer: `/data/${index}/attributes/destination/recipientId` },
          meta: { index },
        }),
      ]),
    );
    // A file in ERROR creates nothing.
    expect(await listAll(h, `filter[bulk]=${data.id as string}`)).toHaveLength(0);
  });

  it('words the bulk error for one invalid donation in the singular', async () => {
    const data = await settle(h, [donation(r.good as string, 500), donation(r.unknownCause as string, 600)]);
    expect(data.attributes.errors[0].detail).toBe(
      '1 of 2 donations is invalid; download the error file, correct it and upload a new file.',
    );
  });

  it('lets a cause not in good standing through validation: it is created, then declined minutes later', async () => {
    const data = await settle(h, [
      donation(r.good as string, 500),
      donation(r.notInGoodStanding as string, 700),
    ]);
    expect(data.attributes.status).toBe('PROCESSED');
    await h.emu.advance(10 * 60);
    const list = await h.api('GET', `/donations?filter[bulk]=${data.id as string}`);
    const declined = (list.body.data as Json[]).find((d) => d.attributes.funds.amount === 700);
    expect(declined?.attributes.state.processingStatus).toBe('DECLINED');
    expect(declined?.attributes.state.errors[0].code).toBe('CAUSE_NOT_IN_GOOD_STANDING');
  });

  it('still answers a single donation to an unknown recipient at once (201) and declines it later', async () => {
    const created = await h.api('POST', '/donations', { data: donation(r.unknownCause as string) });
    expect(created.status).toBe(201);
    await h.emu.advance(10 * 60);
    const read = await h.api('GET', `/donations/${created.body.data.id as string}`);
    expect(read.body.data.attributes.state.processingStatus).toBe('DECLINED');
    expect(read.body.data.attributes.state.errors[0].code).toBe('RECIPIENT_NOT_FOUND');
  });
});

describe('recipientCheck: processing (the default)', () => {
  let h: Harness;
  let r: Record<string, string>;
  beforeAll(async () => {
    h = await startHarness();
    r = recipients(await info(h));
  });
  afterAll(async () => {
    await h.emu.close();
  });

  it('creates the same file’s donations and declines the unknown recipient later', async () => {
    expect((await h.control('info')).body.recipientCheck).toBe('processing');
    const data = await settle(h, [donation(r.good as string, 500), donation(r.unknownCause as string, 600)]);
    expect(data.attributes.status).toBe('PROCESSED');
    await h.emu.advance(10 * 60);
    const list = await h.api('GET', `/donations?filter[bulk]=${data.id as string}`);
    const declined = (list.body.data as Json[]).find((d) => d.attributes.funds.amount === 600);
    expect(declined?.attributes.state.errors[0].code).toBe('RECIPIENT_NOT_FOUND');
  });
});

describe('recipientCheck across a restart', () => {
  it('a file validated before the restart is processed whole, though the check is now at validation', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'emulator-recipient-check-'));
    try {
      const first = await startHarness({ dataDir });
      const r = recipients(await info(first));
      const intent = await createIntent(first);
      await upload(
        intent,
        bulkFile([donation(r.good as string, 500), donation(r.unknownCause as string, 600)]),
      );
      // Stop while the file is validated but not yet picked up for processing.
      let status = 'UPLOADED';
      for (let i = 0; i < 30 && status === 'UPLOADED'; i++) {
        await first.emu.advance(10);
        status = (await bulkStatus(first, intent.id)).body.data.attributes.status as string;
      }
      expect(status).toBe('VALIDATED');
      await first.emu.close();

      const second = await startHarness({ dataDir, recipientCheck: 'validation' });
      await second.emu.advance(3600);
      const data = (await bulkStatus(second, intent.id)).body.data;
      expect(data.attributes.status).toBe('PROCESSED');
      expect(data.links.related.meta).toEqual({ uploaded: 2, accepted: 2 });
      await second.emu.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
