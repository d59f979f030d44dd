import { describe, expect, it } from 'vitest';
import { RECIPIENT_KEY } from '../../../app/routes';
import { readChosenRecipient } from './chosenRecipient';

const storage = (value: string | null) => () => ({
  getItem: (key: string) => (key === RECIPIENT_KEY ? value : null),
});

describe('the recipient chosen in Search', () => {
  it('is read back as Search left it', () => {
    const chosen = { recipientId: '840-1', label: 'Food bank', chosenAt: '2026-11-26T10:00:00.000Z' };
    expect(readChosenRecipient(storage(JSON.stringify(chosen)))).toEqual(chosen);
  });

  it('is nothing when none was chosen or what is stored cannot be read', () => {
    expect(readChosenRecipient(storage(null))).toBeNull();
    expect(readChosenRecipient(storage('{not json'))).toBeNull();
    expect(
      readChosenRecipient(() => {
        throw new ReferenceError('sessionStorage is not defined');
      }),
    ).toBeNull();
  });
});
