import { describe, expect, it } from 'vitest';
import {
  intentErrorWords,
  refusedRowsWords,
  intentNameWords,
  intentOutcomeWords,
  intentSentWords,
  intentStateWord,
  sentAt,
  serviceIdWords,
  timelineSteps,
} from './intentWords';

const error = {
  code: 'BULK_EXTRACTION_FAILED',
  title: 'Extraction failed',
  detail: '1 of 2 donations failed extraction; 1 were created.',
};

describe('a bulk in words', () => {
  it('says a partial extraction in the app’s own counts, the service’s words kept for the tooltip', () => {
    expect(intentErrorWords({ error, rows: 2, donations: 1, counts: {} })).toEqual({
      text: 'The service stopped part-way through the file. 1 donation was created; 1 row is still to send.',
      serviceSaid:
        'Extraction failed: 1 of 2 donations failed extraction; 1 were created. (BULK_EXTRACTION_FAILED)',
    });
  });

  it('says how many rows a rejected file had refused', () => {
    const rejected = { code: 'INVALID_BULK_DONATIONS', title: 'Invalid donations', detail: '' };
    expect(intentErrorWords({ error: rejected, rows: 5, donations: 0, counts: { invalid: 1 } })?.text).toBe(
      'The service refused the whole file: 1 of its 5 rows has an error, so no donation was created. Fix that row and send the file again.',
    );
    expect(
      intentErrorWords({ error: rejected, rows: 39, donations: 0, counts: { invalid: 2 } })?.text,
    ).toContain('2 of its 39 rows have an error, so no donation was created. Fix those rows');
    expect(intentErrorWords({ error: null, rows: 5, donations: 5, counts: {} })).toBeNull();
  });

  it('names the app’s own steps and the service’s statuses in plain words', () => {
    expect(intentStateWord('pending')).toBe('Ready to send the file');
    expect(intentStateWord('PROCESSING')).toBe('Creating donations');
    expect(intentStateWord('ERROR')).toBe('Rejected');
  });
});

describe('a bulk’s timeline', () => {
  it('names a later event about the same state by what happened, not by the state again', () => {
    const steps = timelineSteps([
      { state: 'VALIDATING', at: '2026-11-25T08:00:00Z' },
      { state: 'ERROR', at: '2026-11-25T08:00:03Z' },
      { state: 'ERROR', at: '2026-11-25T08:00:03Z', note: 'no donation was created' },
      { state: 'ERROR', at: '2026-11-25T08:01:00Z', note: 'rejected rows sent again in a later upload' },
    ]);
    expect(steps.map((s) => s.label)).toEqual([
      intentStateWord('VALIDATING'),
      'Rejected',
      'No donation was created',
      'Rejected rows sent again in a later upload',
    ]);
    expect(steps.map((s) => s.code)).toEqual(['VALIDATING', 'ERROR', 'ERROR', 'ERROR']);
  });

  it('keeps a note beside a new state', () => {
    expect(
      timelineSteps([{ state: 'abandoned', at: '2026-11-25T08:00:00Z', note: 'upload address expired' }]),
    ).toEqual([
      { label: 'Never sent', code: 'abandoned', at: '2026-11-25T08:00:00Z', note: 'upload address expired' },
    ]);
  });
});

describe('a bulk named for a person, not by the service’s id', () => {
  const time = (iso: string) => `<${iso}>`;
  const timeline = [
    { state: 'creating' as const, at: '2026-11-25T08:00:00Z' },
    { state: 'uploading' as const, at: '2026-11-25T08:00:01Z' },
    { state: 'UPLOADED' as const, at: '2026-11-25T08:00:02Z' },
    { state: 'PROCESSED' as const, at: '2026-11-25T08:05:00Z' },
  ];

  it('names it by its workspace, and by its file when the upload was split', () => {
    expect(intentNameWords('november', { part: 0, parts: 1 })).toBe('november');
    expect(intentNameWords('november', { part: 1, parts: 3 })).toBe('november, file 2 of 3');
  });

  it('says when the file reached the service, or that it has not', () => {
    expect(sentAt({ timeline })).toBe('2026-11-25T08:00:02Z');
    expect(intentSentWords({ timeline, state: 'PROCESSED', createdAt: '2026-11-25T08:00:00Z' }, time)).toBe(
      'Sent <2026-11-25T08:00:02Z>',
    );
    const early = timeline.slice(0, 2);
    expect(
      intentSentWords({ timeline: early, state: 'uploading', createdAt: '2026-11-25T08:00:00Z' }, time),
    ).toBe('Started <2026-11-25T08:00:00Z>; not at the service yet');
    expect(
      intentSentWords(
        {
          timeline: [...early, { state: 'abandoned', at: '2026-11-25T09:00:00Z' }],
          state: 'abandoned',
          createdAt: '2026-11-25T08:00:00Z',
        },
        time,
      ),
    ).toBe('Started <2026-11-25T08:00:00Z>; the file never reached the service');
  });

  it('keeps the service’s id for the tooltip', () => {
    expect(serviceIdWords('bulk_7f3a')).toBe('The service’s id for this file: bulk_7f3a');
    expect(serviceIdWords(null)).toBe('The service has not given this file an id yet.');
  });
});

describe('the rows a rejected file had refused', () => {
  it('names them as the spreadsheet numbers them, a few then how many more', () => {
    expect(refusedRowsWords([24])).toBe('Row 24 of the spreadsheet needs fixing.');
    expect(refusedRowsWords([24, 8, 24])).toBe('Rows 8 and 24 of the spreadsheet need fixing.');
    expect(refusedRowsWords([3, 8, 12, 17, 20, 24, 31])).toBe(
      'Rows 3, 8, 12, 17, 20 and 2 more of the spreadsheet need fixing.',
    );
    expect(refusedRowsWords([24, null])).toBe(
      'Row 24 of the spreadsheet needs fixing, and rows added in the app.',
    );
    expect(refusedRowsWords([])).toBeNull();
  });
});

describe('a file’s outcome, announced', () => {
  const base = { rows: 40, counts: {}, donations: null, error: null, part: 0, parts: 1 };
  it('says how many rows the service refused and that the upload needs repair', () => {
    expect(
      intentOutcomeWords('sample-donations (November)', {
        ...base,
        state: 'ERROR',
        counts: { invalid: 1 },
        error: { code: 'BULK_VALIDATION_FAILED', title: 'Invalid', detail: '' },
      }),
    ).toBe('sample-donations (November): the service refused 1 row; it needs repair.');
  });
  it('says a processed file’s accepted rows, and names the part of a split upload', () => {
    expect(intentOutcomeWords('May', { ...base, state: 'PROCESSED', counts: { accepted: 40 } })).toBe(
      'May: processed; the service accepted 40 rows.',
    );
    expect(intentOutcomeWords('May', { ...base, state: 'PROCESSED', part: 1, parts: 2 })).toBe(
      'May, file 2 of 2: processed; the service accepted 40 rows.',
    );
  });
  it('says nothing while the file is on its way', () => {
    expect(intentOutcomeWords('May', { ...base, state: 'PROCESSING' })).toBeNull();
  });
});
