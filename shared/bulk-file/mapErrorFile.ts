import type { NormalisedError, ParsedErrorFile } from './errorFile';
import { matchDonations, type MatchMethod, type MatchOptions } from './matchDonations';

/** The errors that belong to one uploaded donation. */
export interface UploadRowErrors {
  /** Index in the uploaded file (the caller maps it to the spreadsheet row). */
  uploadIndex: number;
  method: MatchMethod;
  certain: boolean;
  errors: NormalisedError[];
}

export interface ErrorFileMapping {
  form: ParsedErrorFile['form'];
  /** Per uploaded donation, in upload order. */
  rows: UploadRowErrors[];
  /** Error-file donations that could not be tied to any uploaded one (shown as file-level problems). */
  unmatched: Array<{ position: number; errors: NormalisedError[] }>;
  /** Errors about the whole file. */
  fileErrors: NormalisedError[];
}

/**
 * Ties a parsed error file back to the uploaded donations. For the 'file' form (original upload
 * returned) there is nothing per donation unless an error's pointer names one: `/data/N/...` on
 * the intent's error is placed on upload N.
 */
export function mapErrorFile(
  parsed: ParsedErrorFile,
  uploaded: readonly unknown[],
  options: MatchOptions = {},
): ErrorFileMapping {
  const rows = new Map<number, UploadRowErrors>();
  const unmatched: ErrorFileMapping['unmatched'] = [];
  const fileErrors: NormalisedError[] = [];

  const add = (
    uploadIndex: number,
    method: MatchMethod,
    certain: boolean,
    errors: NormalisedError[],
  ): void => {
    const row = rows.get(uploadIndex);
    if (row) row.errors.push(...errors);
    else rows.set(uploadIndex, { uploadIndex, method, certain, errors: [...errors] });
  };

  if (parsed.form === 'donations') {
    const matches = matchDonations(parsed.donations, uploaded, options);
    parsed.donations.forEach((donation, i) => {
      const match = matches[i];
      if (match?.uploadIndex !== undefined)
        add(match.uploadIndex, match.method, match.certain, donation.errors);
      else unmatched.push({ position: donation.position, errors: donation.errors });
    });
    fileErrors.push(...parsed.fileErrors);
  } else {
    for (const error of parsed.fileErrors) {
      // The returned file is the upload itself, so an absolute index means the same donation.
      if (error.index !== undefined && error.index < uploaded.length)
        add(error.index, 'position', true, [error]);
      else fileErrors.push(error);
    }
  }
  return {
    form: parsed.form,
    rows: [...rows.values()].sort((a, b) => a.uploadIndex - b.uploadIndex),
    unmatched,
    fileErrors,
  };
}
