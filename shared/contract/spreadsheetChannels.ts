import { z } from 'zod';
import type { SheetJSBook } from '../spreadsheet/sheetjs/runner';

/**
 * The most bytes of one workbook sent to be read by the general reader: the local bridge's largest
 * call body (256 MB). An .xls holds at most 65,536 rows a sheet and is far smaller.
 */
export const MAX_SHEETJS_FILE_BYTES = 256 * 1024 * 1024;

/** The longest sheet name asked for (Excel allows 31 characters; OpenDocument sets no limit). */
const MAX_SHEET_NAME_LENGTH = 1000;

const workbookBytes = z.custom<Uint8Array>(
  (value) =>
    value instanceof Uint8Array && value.byteLength > 0 && value.byteLength <= MAX_SHEETJS_FILE_BYTES,
  { message: 'The workbook must be between 1 byte and 256 MB.' },
);

/** SheetJS's book as the reader needs it, or SheetJS's own message when it could not read the file. */
const sheetJSReplySchema = z.custom<SheetJSBook | { sheetJSError: string }>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as { sheetJSError?: unknown }).sheetJSError === 'string' ||
      Array.isArray((value as { sheetNames?: unknown }).sheetNames)),
);

/**
 * The general reader (SheetJS: .xls, .ods, and the .xlsx the fast reader declines) for the app's
 * import worker. It runs in a separate process with a memory and a time limit, never in the window's
 * process: a file that makes it fail fatally ends in SPREADSHEET_UNREADABLE, and the app carries on.
 */
export const spreadsheetChannels = {
  'spreadsheet.readWithSheetJS': {
    request: z
      .object({
        bytes: workbookBytes,
        sheet: z.string().max(MAX_SHEET_NAME_LENGTH).optional(),
        namesOnly: z.boolean().optional(),
      })
      .strict(),
    response: sheetJSReplySchema,
  },
} as const;
