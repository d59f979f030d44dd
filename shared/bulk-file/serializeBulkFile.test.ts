import { describe, expect, it } from 'vitest';
import { bulkFileSchema, type DonationAttributes } from '../donation';
import { buildBulkFile } from './buildBulkFile';
import { planBulkFiles, serializeBulkFile, serializeBulkFileAsync, utf8Length } from './serializeBulkFile';

const donation = (i: number, note = 'x'): DonationAttributes => ({
  destination: { recipientId: '840-123456789' },
  funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 + i, source: 'COMPANY' },
  metadata: { ddRef: `w:${i + 2}`, note },
});

describe('buildBulkFile', () => {
  it('has only the top-level data, each entry typed donations', () => {
    const file = buildBulkFile([donation(0), donation(1)]);
    expect(Object.keys(file)).toEqual(['data']);
    expect(file.data.map((e) => e.type)).toEqual(['donations', 'donations']);
    expect(bulkFileSchema.safeParse(file).success).toBe(true);
  });
});

describe('serializeBulkFile', () => {
  it.each([0, 1, 2, 1000])('joins to exactly JSON.stringify of the file (%d donations)', (n) => {
    const donations = Array.from({ length: n }, (_, i) => donation(i, 'Café "quoted" ☕'));
    const chunks = [...serializeBulkFile(donations, { chunkChars: 500 })];
    expect(chunks.join('')).toBe(JSON.stringify(buildBulkFile(donations)));
    if (n === 1000) expect(chunks.length).toBeGreaterThan(10);
  });

  it('gives the same text from an async source', async () => {
    async function* source(): AsyncGenerator<DonationAttributes> {
      for (let i = 0; i < 50; i++) yield donation(i);
    }
    let text = '';
    for await (const chunk of serializeBulkFileAsync(source(), { chunkChars: 300 })) text += chunk;
    expect(text).toBe(JSON.stringify(buildBulkFile(Array.from({ length: 50 }, (_, i) => donation(i)))));
  });

  it('streams from a generator without holding the donations', () => {
    function* many(): Generator<DonationAttributes> {
      for (let i = 0; i < 100_000; i++) yield donation(i);
    }
    let chars = 0;
    let chunks = 0;
    let largest = 0;
    for (const chunk of serializeBulkFile(many())) {
      chars += chunk.length;
      chunks++;
      largest = Math.max(largest, chunk.length);
    }
    expect(chunks).toBeGreaterThan(5);
    expect(largest).toBeLessThan((1 << 20) + 1000);
    expect(chars).toBeGreaterThan(100_000 * 100);
  });
});

describe('planBulkFiles', () => {
  const donations = Array.from({ length: 10 }, (_, i) => donation(i));
  const size = (start: number, end: number) =>
    utf8Length(JSON.stringify(buildBulkFile(donations.slice(start, end))));

  it('splits by rows', () => {
    expect(planBulkFiles(donations, { maxRows: 4 }).map((p) => [p.start, p.end])).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
  });

  it('splits by bytes, and each part knows its exact size', () => {
    const limit = size(0, 3);
    const parts = planBulkFiles(donations, { maxBytes: limit });
    for (const p of parts) {
      expect(p.bytes).toBe(size(p.start, p.end));
      expect(p.bytes).toBeLessThanOrEqual(limit);
    }
    expect(parts.at(-1)?.end).toBe(10);
  });

  it('gives a too-large donation its own file instead of dropping it', () => {
    expect(planBulkFiles(donations.slice(0, 2), { maxBytes: 10 }).map((p) => [p.start, p.end])).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('returns nothing for nothing', () => {
    expect(planBulkFiles([], { maxRows: 5 })).toEqual([]);
  });

  it('counts UTF-8 bytes as an encoder would', () => {
    for (const text of ['abc', 'é', '€', '🎉', 'a\ud800b', '']) {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});
