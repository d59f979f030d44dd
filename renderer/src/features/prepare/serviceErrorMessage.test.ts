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
      'The service refused this donation as a whole: The service could not create this donation. Upload it again in a new file. Nothing in the row needs changing: Send corrected rows sends it again in a new file.',
    );
  });

  it('names an attribute no column holds, and where to change it', () => {
    expect(serviceErrorMessage({ ...extraction, field: 'funds.paymentType', code: 'INVALID_VALUE' })).toMatch(
      /^The service refused Payment type, which no column .*: A value is not allowed\. .* Change mapping\.$/,
    );
  });

  it('keeps the plain form for a problem on its own cell', () => {
    expect(serviceErrorMessage({ ...extraction, columnIndex: 2, detail: '' })).toBe(
      'The service refused this: The service could not create this donation.',
    );
  });

  it('says an unknown recipient in the app’s words, the service’s detail naming the id after them', () => {
    expect(
      serviceErrorMessage({
        rowKey: 21,
        columnIndex: 0,
        field: 'destination.recipientId',
        code: 'RECIPIENT_NOT_FOUND',
        title: 'Recipient not found',
        detail: 'No cause, project or portfolio has the id "840-563097426".',
      }),
    ).toBe(
      'The service refused this: The service does not know this recipient. No cause, project or portfolio has the id "840-563097426".',
    );
  });

  it('uses the service’s own title for a code the app has no words for', () => {
    expect(
      serviceErrorMessage({ ...extraction, columnIndex: 1, code: 'SOMETHING_NEW', title: 'Odd value' }),
    ).toBe('The service refused this: Odd value. Upload it again in a new file.');
  });
});
