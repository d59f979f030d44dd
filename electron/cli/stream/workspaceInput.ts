import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { suggestMapping, type MappingTemplate } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import {
  READ_LIMITS,
  SpreadsheetReadError,
  type SheetRow,
  type SpreadsheetFormat,
} from '../../../shared/spreadsheet';
import { detectFormat } from '../../../shared/spreadsheet/format';
import { SheetSizeGuard } from '../../../shared/spreadsheet/layout/sheetSize';
import { readMappingTemplate, readSheetInput } from '../sheetInput';
import { readHead } from './csvStream';
import { openRowSource, STREAM_FROM_BYTES } from './rowSource';

/** What a workspace is made from: the sheet's layout, a pass over its rows, the mapping, the file's size and hash. */
export interface WorkspaceInput {
  fileName: string;
  format: SpreadsheetFormat;
  sheet: string;
  headerRow: number;
  headerRowCount: number;
  headers: string[];
  /**
   * One pass over the data rows in order (a large file's are read as they are handed out, never all
   * held); `between` is awaited after each piece. Answers the totals row set aside, if any.
   */
  eachRow(onRow: (row: SheetRow) => void, between: () => Promise<void>): Promise<SheetRow | null>;
  skippedBlankRows: number;
  warnings: string[];
  template: MappingTemplate;
  fileBytes: number;
  sha256: string;
}

const STREAMED_FORMATS = new Set(['csv', 'tsv', 'txt', 'xlsx', 'xlsm']);

async function fileHash(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * The rows `upload` makes its workspace from. A file from `streamFrom` bytes on (CSV, TSV, TXT, xlsx)
 * is read in passes as `validate` reads it, never as one string or one buffer, and its rows are
 * handed out one at a time to be saved as they come: a CSV of 30,000 rows of 100 metadata values of
 * 190 characters is longer than the longest string JavaScript can hold.
 * The app's limits on rows and cells (what a workspace holds) still apply. Smaller files, and other
 * formats, are read whole as the app reads them. Problems become DeskFailure with code USAGE.
 */
export async function readWorkspaceInput(
  file: string,
  mappingPath: string | undefined,
  sheetName: string | undefined,
  streamFrom: number = STREAM_FROM_BYTES,
): Promise<WorkspaceInput> {
  const path = resolve(file);
  const size = await stat(path).then(
    (s) => s.size,
    () => {
      throw new DeskFailure('USAGE', `Cannot read ${file}. Check the name and that you may read it.`);
    },
  );
  const format = size >= streamFrom ? detectFormat(await readHead(path, 512), basename(path)) : null;
  if (!format || !STREAMED_FORMATS.has(format)) {
    const read = await readSheetInput(file, mappingPath, sheetName);
    return {
      fileName: read.fileName,
      format: read.sheet.format,
      sheet: read.sheet.sheet,
      headerRow: read.sheet.headerRow,
      headerRowCount: read.sheet.headerRowCount,
      headers: read.sheet.headers,
      async eachRow(onRow, between) {
        const rows = read.sheet.rows;
        for (let i = 0; i < rows.length; i++) {
          onRow(rows[i] as SheetRow);
          if ((i & 1023) === 1023) await between();
        }
        return read.sheet.totalsRow ?? null;
      },
      skippedBlankRows: read.sheet.skippedBlankRows,
      warnings: read.sheet.warnings,
      template: read.template,
      fileBytes: read.fileBytes,
      sha256: read.sha256,
    };
  }
  let template = await readMappingTemplate(mappingPath);
  const wantedSheet = sheetName ?? template?.sheet;
  const noop = async (): Promise<void> => undefined;
  try {
    const source = await openRowSource(path, {
      ...(wantedSheet ? { sheet: wantedSheet } : {}),
      ...(template?.headerRow ? { headerRow: template.headerRow } : {}),
      streamFrom,
      survey: { between: noop },
    });
    const { layout } = source;
    template ??= suggestMapping(layout.headers, {
      samples: layout.samples.slice(0, 50).map((r) => r.cells),
    }).template;
    const hashed = await fileHash(path);
    return {
      fileName: layout.fileName,
      format: layout.format,
      sheet: layout.sheet,
      headerRow: layout.headerRow,
      headerRowCount: layout.headerRowCount,
      headers: layout.headers,
      async eachRow(onRow, between) {
        // The app's limits on what a workspace holds, as the whole-file reader applies them.
        const guard = new SheetSizeGuard(READ_LIMITS);
        let totalsRow: SheetRow | null = null;
        try {
          await source.eachRow(
            (row) => {
              guard.add(row);
              onRow(row);
            },
            { between },
            (row) => (totalsRow = row),
          );
        } catch (e) {
          throw usage(e);
        }
        return totalsRow;
      },
      skippedBlankRows: layout.skippedBlankRows,
      warnings: layout.warnings,
      template,
      fileBytes: hashed.bytes,
      sha256: hashed.sha256,
    };
  } catch (e) {
    throw usage(e);
  }
}

/** A file the reader refuses is a problem with the command's arguments (exit 2). */
function usage(e: unknown): unknown {
  if (e instanceof SpreadsheetReadError || (e instanceof DeskFailure && e.code !== 'INTERNAL')) {
    return new DeskFailure('USAGE', e.message);
  }
  return e;
}
