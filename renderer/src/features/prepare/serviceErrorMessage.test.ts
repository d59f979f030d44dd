import { describe, expect, it } from 'vitest';
import { serviceErrorMessage } from './serviceErrorMessage';

const extraction = {
  rowKey: 4,
  columnIndex: null,
  field: '',
  code: 'EXTRACTION_FAILED',
  title: 'Donation extraction failed',
  detail: 'Upload it again in a new file.',
};

describe('the service’s problems in words', () => {
  it('says a failed extraction is about the whole donation and needs no change', () => {
    expect(serviceErrorMessage(extraction)).toBe(
      'The service refused this donation as a whole: Donation extraction failed. Upload it again in a new file. Nothing in the row needs changing: Send corrected rows sends it again in a new file.',
    );
  });

  it('names an attribute no column holds, and where to change it', () => {
    expect(serviceErrorMessage({ ...extraction, field: 'funds.paymentType', code: 'INVALID_VALUE' })).toMatch(
      /^The service refused funds\.paymentType, which no column .* Change mapping\.$/,
    );
  });

  it('keeps the plain form for a problem on its own cell', () => {
    expect(serviceErrorMessage({ ...extraction, columnIndex: 2, detail: '' })).toBe(
      'The service refused this: Donation extraction failed',
    );
  });
});
