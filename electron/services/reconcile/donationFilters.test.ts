import { describe, expect, it } from 'vitest';
import { countParts, nextMonth, whereOf } from './donationFilters';

describe('donation filters as SQL', () => {
  it('names the month after, across a year’s end', () => {
    expect(nextMonth('2026-11')).toBe('2026-12');
    expect(nextMonth('2026-12')).toBe('2027-01');
  });

  it('scopes to the environment alone when no bulk is named', () => {
    expect(whereOf('production', {})).toEqual({ where: 'environment = ?', params: ['production'] });
    expect(whereOf('production', { status: 'DECLINED' })).toEqual({
      where: 'environment = ? AND status = ?',
      params: ['production', 'DECLINED'],
    });
  });

  it('reads one bulk by equality, so its index gives the page in order', () => {
    const { where, params } = whereOf('production', { bulkIds: ['b1'] });
    expect(where).toBe('environment = ? AND bulk_id = ?');
    expect(params).toEqual(['production', 'b1']);
    const several = whereOf('production', { bulkIds: ['b1', 'b2'] });
    expect(several.where).toContain('bulk_id IN (SELECT value FROM json_each(?))');
    expect(several.params).toEqual(['production', '["b1","b2"]']);
  });

  it('adds singles and the corrections of the bulks’ donations when asked', () => {
    const { where, params } = whereOf('production', { bulkIds: ['b1'], singles: true, corrections: true });
    expect(where).toContain('bulk_id IS NULL AND replaces IS NULL');
    expect(where).toContain('EXISTS (SELECT 1 FROM donation AS o');
    // Every placeholder has its value.
    expect(where.split('?').length - 1).toBe(params.length);
  });

  it('keeps only donations of no bulk for oneByOne, and nothing when no kind is asked', () => {
    expect(whereOf('production', { bulkIds: ['b1'], oneByOne: true }).where).toBe(
      'environment = ? AND bulk_id IS NULL AND 0',
    );
    const some = whereOf('production', { bulkIds: ['b1'], oneByOne: true, singles: true });
    expect(some.where).toBe('environment = ? AND bulk_id IS NULL AND (replaces IS NULL)');
  });

  it('counts in disjoint parts: the bulks from the running sums, then what has no bulk, then corrections elsewhere', () => {
    const parts = countParts('production', {
      bulkIds: ['b1'],
      singles: true,
      corrections: true,
      status: 'PAID',
    });
    expect(parts.map((p) => [!!p.sums, p.from ?? 'donation'])).toEqual([
      [true, 'donation'],
      [false, 'donation'],
      [false, 'donation INDEXED BY donation_replaces'],
    ]);
    for (const part of parts) {
      expect(part.where).toContain('status = ?');
      expect(part.where.split('?').length - 1).toBe(part.params.length);
    }
    // Without bulks there is one part: the filter itself.
    expect(countParts('production', { status: 'PAID' })).toEqual([whereOf('production', { status: 'PAID' })]);
  });
});
