import { describe, expect, it } from 'vitest';
import type { GivingOpportunity } from '../../../../shared/contract/searchChannels';
import { searchedFor } from './searchedFor';

const result = (title: string[], body: string[] = []): GivingOpportunity => ({
  id: 1,
  title: 'x',
  description: 'x',
  snippets: { title, body },
});

describe('what an autocorrected search looked for', () => {
  it('names each typed word the service replaced, from the words it marked', () => {
    const found = searchedFor('fod banks', [
      result(['Community <em>food</em> <em>banks</em>']),
      result([], ['Fresh <em>food</em> for families']),
    ]);
    expect(found.terms).toEqual(['food', 'banks']);
    expect(found.changed).toEqual([{ typed: 'fod', searched: 'food' }]);
  });

  it('changes nothing when every typed word was matched as typed, or nothing was marked', () => {
    expect(searchedFor('literacy', [result(['Adult <em>literacy</em>'])]).changed).toEqual([]);
    expect(searchedFor('fod', [result(['No marks here'])])).toEqual({ terms: ['fod'], changed: [] });
  });
});
