import {
  checkRow,
  makeRowChecker,
  placeFileIssue,
  workspaceMappingSchema,
  type RowChecker,
} from '../../../shared/workspace';
import {
  DEFAULT_REFERENCE_KEY,
  suggestMapping,
  type MappedIssue,
  type MappedRow,
  type MappingTemplate,
} from '../../../shared/mapping';
import type { SheetRow } from '../../../shared/spreadsheet';
import { FileStats } from './fileStats';
import type { ProgressLine } from './progress';
import type { RowSource } from './rowSource';

/** A file checked on its own has no workspace; its id only names the reference pair. */
const FILE_ID = '00000000-0000-4000-8000-000000000000';

export interface CheckOptions {
  /** The --mapping template; the app's suggestion when absent. */
  template: MappingTemplate | null;
  /** Whether each donation carries the row reference pair, as the app's switch (default on). */
  rowReference: boolean;
  progress: ProgressLine;
  /** Called between pieces, so that whoever writes the output can keep up. */
  pause?: () => Promise<void>;
  /** Each row's result as it is checked (build writes the valid ones in this same pass). */
  onChecked?: (result: MappedRow) => void;
}

export interface CheckedFile {
  source: RowSource;
  template: MappingTemplate;
  suggested: boolean;
  checker: RowChecker;
  stats: FileStats;
}

/**
 * The mapping of a file checked or built from the command line: the template, with the app's
 * switch for the row reference. The reference pair counts against the service's 100 metadata pairs.
 */
export function cliMapping(template: MappingTemplate, rowReference: boolean) {
  return workspaceMappingSchema.parse({
    template,
    numberStyle: 'auto',
    reference: { enabled: rowReference, key: DEFAULT_REFERENCE_KEY },
  });
}

/** A data row as the checks take it: keys from 1, so every reference value reads back as a row. */
const checkable = (row: SheetRow, index: number) => ({
  key: index + 1,
  rowNumber: row.rowNumber,
  cells: row.cells,
});

/**
 * Checks every row of the file in one pass, keeping only statistics (see FileStats): counts, totals
 * per currency, and what the file-wide checks need. No row is kept.
 */
export async function checkFileInPasses(source: RowSource, options: CheckOptions): Promise<CheckedFile> {
  const { layout } = source;
  const suggested = options.template === null;
  const template =
    options.template ??
    suggestMapping(layout.headers, { samples: layout.samples.slice(0, 50).map((r) => r.cells) }).template;
  const mapping = cliMapping(template, options.rowReference);
  const checker = makeRowChecker(FILE_ID, layout.headers, mapping, layout.samples);
  const stats = new FileStats(layout.dataRows, checker.referenceKey ? [checker.referenceKey] : []);
  let index = 0;
  options.progress.start();
  await source.eachRow(
    (row) => {
      const result = checkRow(checker, checkable(row, index));
      stats.add(index, row.rowNumber, result);
      options.onChecked?.(result);
      index++;
      options.progress.row();
    },
    {
      between: async (done, total) => {
        options.progress.update('Checking', done, total);
        await options.pause?.();
      },
    },
  );
  stats.finish();
  return { source, template, suggested, checker, stats };
}

/**
 * A second pass over the rows of a checked file: each row's result and its file-wide findings (placed
 * on their columns), in order, to list or to write.
 */
export async function eachCheckedRow(
  file: CheckedFile,
  stage: string,
  progress: ProgressLine,
  onRow: (index: number, row: SheetRow, result: MappedRow, fileIssues: MappedIssue[]) => void,
  pause: () => Promise<void>,
): Promise<void> {
  let index = 0;
  progress.start();
  await file.source.eachRow(
    (row) => {
      const result = checkRow(file.checker, checkable(row, index));
      const fileIssues = file.stats.issuesOf(index).map((issue) => placeFileIssue(file.checker, issue));
      onRow(index, row, result, fileIssues);
      index++;
      progress.row();
    },
    {
      between: async (done, total) => {
        progress.update(stage, done, total);
        await pause();
      },
    },
  );
}
