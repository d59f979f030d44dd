import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { DonationAttributes } from '../../../../shared/donation';
import { validDonation } from '../../../../shared/donation/testFixtures';
import { gzipBulkFile, sha256 } from '../../upload/compress';
import type { SentElsewhere } from '../teamTypes';
import { bulkFileSha256, reviewFacts } from '../teamUploads';
import { codeAmount, declaredDifferences } from './declaredDifferences';
import { fileFigures, guardFingerprints, referenceKeyOf } from './fileSummary';
import { isTamperSign, whyFileBlocks } from './readUploadFile';
import { NOT_READABLE, NOT_STORED, readStoredParts } from './storedParts';

const gift = (amount: number, i: number, currencyCode = 'USD'): DonationAttributes =>
  validDonation({
    destination: { recipientId: `840-10000000${i % 10}` },
    funds: { paymentType: 'DONATION_REPORT', currencyCode, amount, source: 'COMPANY' },
    donor: { fullName: `Donor ${i}`, receipted: false },
    metadata: { ddRef: `ab12cd34:${i + 1}` },
  });

async function partsOf(...files: DonationAttributes[][]) {
  const parts = await Promise.all(files.map((f) => gzipBulkFile(f)));
  return {
    parts: parts.map((p, part) => ({ part, bytes: p.gz })),
    sha: bulkFileSha256(parts.map((p) => p.sha256)),
  };
}

describe('readStoredParts: the file from the bytes the team database keeps', () => {
  it('reads every part in order, its SHA-256 worked out here', async () => {
    const { parts, sha } = await partsOf([gift(100, 0), gift(200, 1)], [gift(300, 2)]);
    const read = await readStoredParts([...parts].reverse(), sha);
    expect(read.ok && read.donations.map((d) => d.funds.amount)).toEqual([100, 200, 300]);
  });

  it('says plainly when nothing is stored', async () => {
    expect(await readStoredParts([], 'a'.repeat(64))).toEqual({ ok: false, problem: NOT_STORED });
  });

  it('refuses bytes that are not the file declared, and a part missing', async () => {
    const { parts, sha } = await partsOf([gift(100, 0)], [gift(300, 2)]);
    const swapped = await readStoredParts([parts[0]!, { part: 1, bytes: gzipSync('{"data":[]}') }], sha);
    expect(swapped).toMatchObject({ ok: false, problem: expect.stringContaining('is not the one') });
    const missing = await readStoredParts([parts[1]!], sha);
    expect(missing).toMatchObject({ ok: false, problem: expect.stringContaining('not every part') });
  });

  it('stops inflating at the cap: a small gzip that unpacks to much more is not read', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 32));
    const read = await readStoredParts([{ part: 0, bytes: bomb }], sha256(bomb), {
      part: 1024 * 1024,
      file: 2 * 1024 * 1024,
    });
    expect(read).toMatchObject({ ok: false, problem: expect.stringContaining('unpacks to more than 1 MB') });
  });

  it('refuses what the service would not read as a bulk file', async () => {
    const bytes = gzipSync(JSON.stringify({ data: [{ type: 'donations', attributes: {} }], extra: 1 }));
    const read = await readStoredParts([{ part: 0, bytes }], sha256(bytes));
    expect(read).toMatchObject({ ok: false, problem: expect.stringContaining('not a bulk file') });
    const notGzip = Buffer.from('plain text');
    expect(await readStoredParts([{ part: 0, bytes: notGzip }], sha256(notGzip))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not a compressed file'),
    });
  });
});

describe('fileFigures: what the approver sees, computed from the donations', () => {
  const usual = Array.from({ length: 9 }, (_, i) => gift(1000, i));
  const file = [...usual, gift(500000, 9), gift(700, 10, 'EUR')];

  it('counts and totals per currency, the largest recipients as the preparer orders them', () => {
    const fingerprints = guardFingerprints(file);
    const figures = fileFigures(file, { createdAt: '2026-11-20T10:00:00Z', sent: new Map(), fingerprints });
    expect(figures.totals).toEqual([
      { currencyCode: 'EUR', count: 1, amount: 700 },
      { currencyCode: 'USD', count: 10, amount: 509000 },
    ]);
    expect(figures.largestRecipients).toEqual(
      reviewFacts(file, { createdAt: '2026-11-20T10:00:00Z', alreadyOut: 0 }).largestRecipients,
    );
    expect(figures.rows).toHaveLength(11);
    expect(figures.rows[9]).toMatchObject({ row: 10, donor: 'Donor 9', amount: 500000, sentBy: null });
  });

  it("shows the Prepare screen's warnings on the rows and counts them", () => {
    const figures = fileFigures(file, {
      createdAt: '2026-11-20T10:00:00Z',
      sent: new Map(),
      fingerprints: guardFingerprints(file),
    });
    expect(figures.rows[9]!.warnings.join(' ')).toContain("at least 10 times this file's usual USD amount");
    expect(figures.warnings).toContain("1 row has an amount at least 10 times this file's usual amount.");
  });

  it('marks rows the team already sent, by the fingerprint the send gate uses (without the reference)', () => {
    const fingerprints = guardFingerprints(file);
    expect(referenceKeyOf(file)).toBe('ddRef');
    // The same gift from another workspace has another reference but the same fingerprint.
    const elsewhere = { ...file[3]!, metadata: { ddRef: 'ffff0000:1' } };
    expect(guardFingerprints([elsewhere])[0]).toBe(fingerprints[3]);
    const sent: SentElsewhere = {
      fingerprint: fingerprints[3]!,
      uploadId: 'u-0',
      sentBy: 'alice',
      computer: 'alice-laptop',
      at: '2026-10-01T00:00:00Z',
    };
    const figures = fileFigures(file, {
      createdAt: '2026-11-20T10:00:00Z',
      sent: new Map([[sent.fingerprint, sent]]),
      fingerprints,
      causeName: (id) => (id === '840-100000003' ? 'Harbour Food Bank' : null),
    });
    expect(figures.alreadySent).toBe(1);
    expect(figures.rows[3]).toMatchObject({
      sentBy: 'alice from alice-laptop',
      causeName: 'Harbour Food Bank',
    });
    expect(figures.rows[4]!.causeName).toBeNull();
    expect(figures.warnings).toContain('1 row was already sent by the team in another upload.');
  });
});

describe('declaredDifferences: the file against the declaration, in sentences', () => {
  const recipients = [{ recipientId: '840-1', currencyCode: 'USD', amount: 500, count: 5 }];

  it('writes amounts with their code and grouped thousands', () => {
    expect(codeAmount(499999500, 'USD')).toBe('USD 4,999,995.00');
    expect(codeAmount(1234567, 'JPY')).toBe('JPY 1,234,567');
    expect(codeAmount(-100, 'EUR')).toBe('EUR -1.00');
  });

  it('says the lying declaration plainly', () => {
    const said = declaredDifferences(
      {
        rows: 5,
        totals: [{ currencyCode: 'USD', count: 5, amount: 499999500 }],
        largestRecipients: [{ ...recipients[0]!, amount: 499999500 }],
      },
      { rows: 5, totals: [{ currencyCode: 'USD', count: 5, amount: 500 }], largestRecipients: recipients },
    );
    expect(said).toEqual([
      "The file holds 5 donations for USD 4,999,995.00; the preparer's app declared USD 5.00. Do not approve it: tell your desk admin.",
    ]);
  });

  it('names the count when it differs too, and every currency', () => {
    const [said] = declaredDifferences(
      {
        rows: 6,
        totals: [
          { currencyCode: 'USD', count: 5, amount: 500 },
          { currencyCode: 'EUR', count: 1, amount: 100 },
        ],
        largestRecipients: recipients,
      },
      { rows: 5, totals: [{ currencyCode: 'USD', count: 5, amount: 500 }], largestRecipients: recipients },
    );
    expect(said).toBe(
      "The file holds 6 donations for EUR 1.00 and USD 5.00; the preparer's app declared 5 donations for USD 5.00. Do not approve it: tell your desk admin.",
    );
  });

  it('finds largest recipients declared other than those in the file', () => {
    const same = { rows: 5, totals: [{ currencyCode: 'USD', count: 5, amount: 500 }] };
    expect(
      declaredDifferences(
        { ...same, largestRecipients: recipients },
        { ...same, largestRecipients: recipients },
      ),
    ).toEqual([]);
    expect(
      declaredDifferences(
        { ...same, largestRecipients: recipients },
        { ...same, largestRecipients: [{ ...recipients[0]!, recipientId: '840-2' }] },
      ),
    ).toEqual([
      "The largest recipients in the file are not those the preparer's app declared. Do not approve it: tell your desk admin.",
    ]);
  });
});

describe('what blocks an approval, and what is worth an audit entry', () => {
  it('blocks on a difference or a file not read; records only signs of tampering', () => {
    const read = {
      checked: true as const,
      rows: [],
      totals: [],
      largestRecipients: [],
      warnings: [],
      alreadySent: 0,
      differences: [],
    };
    expect(whyFileBlocks(read)).toBeNull();
    expect(isTamperSign(read)).toBe(false);
    const lie = { ...read, differences: ['The file holds …', 'The largest …'] };
    expect(whyFileBlocks(lie)).toBe('The file holds … The largest …');
    expect(isTamperSign(lie)).toBe(true);
    for (const problem of [NOT_STORED, NOT_READABLE]) {
      expect(whyFileBlocks({ checked: false, problem })).toBe(problem);
      expect(isTamperSign({ checked: false, problem })).toBe(false);
    }
    expect(isTamperSign({ checked: false, problem: 'The file stored … is not the one declared.' })).toBe(
      true,
    );
  });
});
