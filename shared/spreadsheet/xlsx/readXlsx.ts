import type { WorkMonitor } from '../cancellation';
import { count, plural } from '../../i18n';
import { SpreadsheetReadError } from '../errors';
import type { ReadLimits } from '../limits';
import { columnLetters } from '../layout/headerNames';
import type { RawSheet } from '../types';
import { SheetSizeGuard } from '../layout/sheetSize';
import { parseCellStyles } from './cellStyles';
import { withoutRootPrefix } from './namespacePrefix';
import { parseSharedStrings } from './sharedStrings';
import { readWorkbookParts } from './workbookParts';
import { WorksheetScanner } from './worksheetScanner';
import { ZipArchive, inflateEntry, type RawInflater } from './zipArchive';

/**
 * A part as text, inflated with the given inflater (the shared strings can be tens of megabytes),
 * refused past the limit for parts read whole.
 */
async function inflateText(archive: ZipArchive, name: string, inflater?: RawInflater): Promise<string> {
  const entry = archive.find(name);
  if (!entry) return '';
  if (!inflater) return archive.readText(name) ?? '';
  const chunks: Uint8Array[] = [];
  await inflateEntry(
    archive,
    entry,
    (chunk) => chunks.push(chunk.slice()),
    () => undefined,
    inflater,
    archive.budget.limits.maxTextPartBytes,
  );
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

export function listXlsxSheets(bytes: Uint8Array, limits?: Readonly<ReadLimits>): string[] {
  return readWorkbookParts(new ZipArchive(bytes, limits)).sheets.map((sheet) => sheet.name);
}

/**
 * The fast xlsx/xlsm path: the worksheet is inflated and its bytes scanned piece by piece (no
 * whole-sheet string, no DOM), yielding now and then so progress shows and a cancel is heard. Throws
 * FastReaderUnsupported for what SheetJS should handle instead.
 */
export async function readXlsx(
  bytes: Uint8Array,
  sheetName: string | undefined,
  monitor: WorkMonitor,
  inflater?: RawInflater,
  limits?: Readonly<ReadLimits>,
): Promise<{ sheetNames: string[]; sheet: string; raw: RawSheet }> {
  const archive = new ZipArchive(bytes, limits);
  const parts = readWorkbookParts(archive);
  const sheetNames = parts.sheets.map((sheet) => sheet.name);
  const sheet = sheetName === undefined ? parts.sheets[0] : parts.sheets.find((s) => s.name === sheetName);
  if (!sheet) {
    throw new SpreadsheetReadError(
      `The workbook has no sheet named "${sheetName ?? ''}". Choose one of: ${sheetNames.join(', ')}.`,
    );
  }
  const entry = archive.find(sheet.path);
  if (!entry) {
    throw new SpreadsheetReadError(
      `The sheet "${sheet.name}" has no cells to read (it may be a chart sheet). Choose another sheet.`,
    );
  }
  monitor.throwIfCancelled();
  const sharedStrings = parseSharedStrings(
    withoutRootPrefix(
      await inflateText(archive, parts.sharedStringsPath ?? 'xl/sharedStrings.xml', inflater),
    ),
  );
  const displays = parseCellStyles(
    withoutRootPrefix(archive.readText(parts.stylesPath ?? 'xl/styles.xml') ?? ''),
  );
  const scanner = new WorksheetScanner(sharedStrings, displays, parts.date1904);
  // Rows are counted as they are read (the last one may still grow), so a sheet past the limits
  // is refused at that point, not once all of it is in memory.
  const guard = new SheetSizeGuard(archive.budget.limits);
  let guarded = 0;
  await inflateEntry(
    archive,
    entry,
    (bytes) => {
      scanner.push(bytes);
      for (; guarded < scanner.rows.length - 1; guarded++) guard.add(scanner.rows[guarded]!);
    },
    async (done, total) => {
      // A flag the caller set synchronously (isCancelled) is seen at every slice, not only on yields.
      monitor.throwIfCancelled();
      if (!monitor.dueForYield()) return;
      monitor.progress(done, total);
      await monitor.yieldNow();
    },
    inflater,
  );
  const merges = scanner.finish();
  for (; guarded < scanner.rows.length; guarded++) guard.add(scanner.rows[guarded]!);
  monitor.progress(1, 1);
  const warnings: string[] = [];
  const missing = scanner.firstMissingSharedString;
  if (missing) {
    const n = scanner.missingSharedStrings;
    warnings.push(
      `${count(n, 'cell')} ${plural(n, { one: 'refers', other: 'refer' })} to text the workbook does not contain ` +
        `(first at ${columnLetters(missing.column)}${missing.rowNumber}); ${plural(n, { one: 'it was', other: 'they were' })} read as empty. ` +
        'Open the file in Excel, save it again, and import the new copy.',
    );
  }
  return { sheetNames, sheet: sheet.name, raw: { rows: scanner.rows, merges, warnings } };
}
