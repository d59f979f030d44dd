import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnEmulator, QUICK_POLLS } from '../../support/cliOnEmulator';
import '../../../electron/cli/commands/upload';
import '../../../electron/cli/commands/audit';

const h = cliOnEmulator({ prefix: 'dd-audit-cli-int-', timeScale: 200, env: QUICK_POLLS });
const { cli } = h;

describe('donation-desk upload, then audit', () => {
  it('records the CLI’s import with the file’s SHA-256 and its upload, and exports them by upload', async () => {
    const text = ['Charity ID,Amount,Currency', `${h.recipients[0]!},12.50,USD`, ''].join('\n');
    const file = join(h.dir, 'gifts.csv');
    await writeFile(file, text);
    const sent = await cli(['upload', file, '--wait', '--json']);
    expect(sent.code, sent.err).toBe(0);
    const uploadId = (JSON.parse(sent.out) as { uploadId: string }).uploadId;

    const printed = await cli(['audit', '--json']);
    expect(printed.code, printed.err).toBe(0);
    const { entries } = JSON.parse(printed.out) as {
      entries: Array<{
        action: string;
        person: string;
        environment: string;
        uploadId: string | null;
        details: Record<string, unknown>;
      }>;
    };
    expect(entries.map((e) => e.action)).toEqual(['upload', 'import']);
    expect(entries[1]?.details).toMatchObject({
      fileName: 'gifts.csv',
      fileBytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
      rows: 1,
    });
    expect(entries[0]).toMatchObject({
      uploadId,
      environment: 'custom',
      person: userInfo().username,
      details: { rows: 1, totals: [{ currencyCode: 'USD', count: 1, amount: 1250 }] },
    });

    const out = join(h.dir, 'upload.csv');
    const written = await cli(['audit', '--upload', uploadId, '--out', out]);
    expect(written.code, written.err).toBe(0);
    expect(written.out).toMatch(/Wrote 1 entry of the audit trail to/);
    const csv = await readFile(out, 'utf8');
    expect(csv).toContain(`,${uploadId},`);
    expect(csv).toContain('$12.50 in 1 row');
  }, 60_000);
});
