import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintDonation, fnv1a64 } from './fingerprint';
import { validDonation } from './testFixtures';

describe('fnv1a64', () => {
  // Published FNV-1a 64 test vectors.
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
  ])('%j → %s', (text, hash) => {
    expect(fnv1a64(text)).toBe(hash);
  });

  it('hashes UTF-8 bytes, so non-ASCII text is stable across platforms', () => {
    expect(fnv1a64('é')).toBe(fnv1a64('\u00e9'));
    expect(fnv1a64('é')).not.toBe(fnv1a64('e\u0301'));
    expect(fnv1a64('🎉')).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('fingerprintDonation', () => {
  it('ignores key order', () => {
    const a = validDonation();
    const b = { metadata: a.metadata, donor: a.donor, funds: a.funds, destination: a.destination };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(fingerprintDonation(a)).toBe(fingerprintDonation(b));
  });

  it('changes with any content', () => {
    const base = fingerprintDonation(validDonation());
    expect(
      fingerprintDonation(validDonation({ funds: { ...validDonation().funds, amount: 2501 } })),
    ).not.toBe(base);
    expect(fingerprintDonation(validDonation({ metadata: { 'Employee ID': 'E-1002' } }))).not.toBe(base);
  });

  it('can leave out the reference key, and then equals the donation without it', () => {
    const plain = validDonation({ metadata: {} });
    const a = validDonation({ metadata: { ddRef: 'ws1:2' } });
    const b = validDonation({ metadata: { ddRef: 'ws2:9' } });
    const options = { ignoreMetadataKeys: ['ddRef'] };
    expect(fingerprintDonation(a, options)).toBe(fingerprintDonation(b, options));
    expect(fingerprintDonation(a, options)).toBe(
      fingerprintDonation({ ...plain, metadata: undefined }, options),
    );
    expect(fingerprintDonation(a)).not.toBe(fingerprintDonation(b));
  });

  it('gives 100k rows differing only in metadata 100k fingerprints (its speed is in npm run bench)', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => validDonation({ metadata: { n: String(i) } }));
    const seen = new Set(rows.map((r) => fingerprintDonation(r)));
    expect(seen.size).toBe(100_000);
  });
});
