import type { WorkMonitor } from '../cancellation';
import { count, plural } from '../../i18n';
import { SpreadsheetReadError } from '../errors';
import { READ_LIMITS, type ReadLimits } from '../limits';
import { columnLetters } from '../layout/headerNames';
import type { RawSheet, SheetRow } from '../types';
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

/** One sheet of an xlsx opened for reading: its rows can be scanned as often as needed. */
export interface XlsxSheetReader {
  sheetNames: string[];
  sheet: string;
  /**
   * Inflates and scans the sheet once. With `onRow`, rows are handed out as they are read and none
   * is kept (the returned `rows` is empty); without, they are returned. `between` runs between
   * inflated pieces (progress, yielding, cancelling).
   */
  scan(
    onRow: ((row: SheetRow) => void) | undefined,
    between: (done: number, total: number) => Promise<void> | void,
    limits?: Pick<ReadLimits, 'maxRows' | 'maxCells'>,
  ): Promise<RawSheet>;
}

/**
 * Opens the sheet (the first unless named): the workbook parts, shared strings and styles are read
 * once; the worksheet itself is inflated anew by each scan, so no scan holds more than its pieces.
 */
export async function openXlsxSheet(
  bytes: Uint8Array,
  sheetName: string | undefined,
  inflater?: RawInflater,
  limits?: Readonly<ReadLimits>,
): Promise<XlsxSheetReader> {
  const archive = new ZipArchive(bytes, limits);
  const parts = readWorkbookParts(archive);
  const sheetNames = parts.sheets.map((sheet) => sheet.name);
  const sheet = sheetName === undefined ? parts.sheets[0] : parts.sheets.find((s) => s.name === sheetName);
  if (!sheet) {
    throw new SpreadsheetReadError(
      `The workbook has no sheet named "${sheetName ?? ''}". Choose one of: ${sheetNames.join(', ')}.`,
    );
  }
  if (!archive.find(sheet.path)) {
    throw new SpreadsheetReadError(
      `The sheet "${sheet.name}" has no cells to read (it may be a chart sheet). Choose another sheet.`,
    );
  }
  const sharedStrings = parseSharedStrings(
    withoutRootPrefix(
      await inflateText(archive, parts.sharedStringsPath ?? 'xl/sharedStrings.xml', inflater),
    ),
  );
  const displays = parseCellStyles(
    withoutRootPrefix(archive.readText(parts.stylesPath ?? 'xl/styles.xml') ?? ''),
  );
  let scans = 0;
  const scan: XlsxSheetReader['scan'] = async (onRow, between, sizeLimits) => {
    // A later scan counts against a budget of its own: reading the sheet again is not expanding more.
    const from = scans++ === 0 ? archive : new ZipArchive(bytes, limits);
    const entry = from.find(sheet.path)!;
    const scanner = new WorksheetScanner(sharedStrings, displays, parts.date1904);
    // Rows are counted as they are read (the last one may still grow), so a sheet past the limits
    // is refused at that point, not once all of it is in memory.
    const guard = sizeLimits ? new SheetSizeGuard(sizeLimits) : undefined;
    let guarded = 0;
    const handOut = (all: boolean): void => {
      const ready = scanner.rows.length - (all ? 0 : 1);
      if (guard) for (; guarded < ready; guarded++) guard.add(scanner.rows[guarded]!);
      if (!onRow || ready <= 0) return;
      for (const row of scanner.rows.splice(0, ready)) onRow(row);
      guarded = 0;
    };
    await inflateEntry(
      from,
      entry,
      (piece) => {
        scanner.push(piece);
        handOut(false);
      },
      between,
      inflater,
    );
    const merges = scanner.finish();
    handOut(true);
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
    return { rows: scanner.rows, merges, warnings };
  };
  return { sheetNames, sheet: sheet.name, scan };
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
  const reader = await openXlsxSheet(bytes, sheetName, inflater, limits);
  monitor.throwIfCancelled();
  const raw = await reader.scan(
    undefined,
    async (done, total) => {
      // A flag the caller set synchronously (isCancelled) is seen at every slice, not only on yields.
      monitor.throwIfCancelled();
      if (!monitor.dueForYield()) return;
      monitor.progress(done, total);
      await monitor.yieldNow();
    },
    limits ?? READ_LIMITS,
  );
  monitor.progress(1, 1);
  return { sheetNames: reader.sheetNames, sheet: reader.sheet, raw };
}
