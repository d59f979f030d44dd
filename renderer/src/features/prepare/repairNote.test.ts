import { describe, expect, it } from 'vitest';
import { repairNoteWords } from './repairNote';

describe('the repair note', () => {
  it('says what the service refused, where it is marked, and what to do, without technical asides', () => {
    expect(repairNoteWords({ issues: [{ rowKey: 20, columnIndex: 0 }], rowsWithDonation: 0 })).toBe(
      'The service refused this upload: 1 problem in 1 row is marked on its cell. Fix it, then choose Send corrected rows.',
    );
  });

  it('counts problems and rows apart, offers F8 when there are several, and says what will not be sent again', () => {
    expect(
      repairNoteWords({
        issues: [
          { rowKey: 3, columnIndex: null },
          { rowKey: 4, columnIndex: null },
          { rowKey: 4, columnIndex: 2 },
        ],
        rowsWithDonation: 2,
      }),
    ).toBe(
      "The service refused this upload: 3 problems in 2 rows are marked on their cells (those about a whole donation on the row's recipient cell); F8 goes from one to the next. 2 rows of that upload already have a donation and will not be sent again. Fix them, then choose Send corrected rows.",
    );
  });

  it('says when a problem is about the file as a whole', () => {
    expect(repairNoteWords({ issues: [{ rowKey: null, columnIndex: null }], rowsWithDonation: 0 })).toBe(
      'The service refused this upload: 1 problem is about the file as a whole, listed below. Fix it, then choose Send corrected rows.',
    );
  });
});
