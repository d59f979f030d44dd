import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseMappingTemplate, suggestMapping, type MappingTemplate } from '../../shared/mapping';
import { readSpreadsheet, SpreadsheetReadError, type SpreadsheetResult } from '../../shared/spreadsheet';
import { DeskFailure } from '../../shared/result';
import { sheetJSInChildProcess } from '../services/spreadsheet/sheetJSProcess';

/** xls, ods and the xlsx the fast reader declines are parsed in a separate process with a memory limit. */
export const cliSheetJS = sheetJSInChildProcess();

export interface SheetInput {
  fileName: string;
  sheet: SpreadsheetResult;
  template: MappingTemplate;
  /** True when no --mapping was given and the columns were matched automatically. */
  suggested: boolean;
  /** The file's size and SHA-256 (hex), for the audit trail's import entry. */
  fileBytes: number;
  sha256: string;
}

/** The --mapping file's template, or null when none is given. Problems become USAGE failures. */
export async function readMappingTemplate(mappingPath: string | undefined): Promise<MappingTemplate | null> {
  if (!mappingPath) return null;
  const text = await readFile(resolve(mappingPath), 'utf8').catch(() => {
    throw new DeskFailure('USAGE', `Cannot read the mapping file ${mappingPath}.`);
  });
  const parsed = parseMappingTemplate(text);
  if (!parsed.ok) throw new DeskFailure('USAGE', parsed.message);
  return parsed.template;
}

/**
 * Reads a spreadsheet and its mapping the way the app does: the template's sheet and header row
 * (or --sheet), and the template's columns, or the app's own suggestion when none is given.
 * Problems become DeskFailure with code USAGE (exit 2).
 */
export async function readSheetInput(
  file: string,
  mappingPath?: string,
  sheetName?: string,
): Promise<SheetInput> {
  const bytes = await readFile(resolve(file)).catch(() => {
    throw new DeskFailure('USAGE', `Cannot read ${file}. Check the name and that you may read it.`);
  });
  let template = await readMappingTemplate(mappingPath);
  const wantedSheet = sheetName ?? template?.sheet;
  let sheet: SpreadsheetResult;
  try {
    sheet = await readSpreadsheet(new Uint8Array(bytes), basename(file), {
      sheetJS: cliSheetJS,
      ...(wantedSheet ? { sheet: wantedSheet } : {}),
      ...(template?.headerRow ? { headerRow: template.headerRow } : {}),
    });
  } catch (e) {
    if (e instanceof SpreadsheetReadError || (e instanceof DeskFailure && e.code !== 'INTERNAL')) {
      throw new DeskFailure('USAGE', e.message);
    }
    throw e;
  }
  const suggested = template === null;
  template ??= suggestMapping(sheet.headers, {
    samples: sheet.rows.slice(0, 50).map((r) => r.cells),
  }).template;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { fileName: basename(file), sheet, template, suggested, fileBytes: bytes.length, sha256 };
}
