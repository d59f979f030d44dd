import { describe, expect, it } from 'vitest';
import { blankDraft, isComplete } from './drafts';

describe('drafts', () => {
  it('starts with every field empty', () => {
    expect(
      blankDraft([
        ['name', 'New tag name'],
        ['value', 'New tag value'],
      ]),
    ).toEqual({ name: '', value: '' });
  });

  it('is complete only when no field is blank or spaces', () => {
    expect(isComplete({ name: 'Tier', value: 'Gold' })).toBe(true);
    expect(isComplete({ name: 'Tier', value: '  ' })).toBe(false);
    expect(isComplete({ name: '', value: 'Gold' })).toBe(false);
  });
});
