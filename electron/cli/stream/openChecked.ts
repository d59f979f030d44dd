import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { SpreadsheetReadError } from '../../../shared/spreadsheet';
import { DeskFailure } from '../../../shared/result';
import type { CliContext } from '../main';
import { readMappingTemplate } from '../sheetInput';
import { checkFileInPasses, type CheckedFile, type CheckOptions } from './checkInPasses';
import { ProgressLine } from './progress';
import { openRowSource, type RowSource } from './rowSource';

/** Options `validate` and `build` share. */
export const CHECK_OPTIONS = {
  mapping: { type: 'string' },
  sheet: { type: 'string' },
  'no-row-reference': { type: 'boolean' },
  progress: { type: 'boolean' },
} as const;

export interface CheckValues {
  mapping?: string | undefined;
  sheet?: string | undefined;
  'no-row-reference'?: boolean | undefined;
  progress?: boolean | undefined;
}

/** Resolves once stdout has taken what was written. */
export const drained = (ctx: CliContext) => (): Promise<void> => ctx.io.drain?.() ?? Promise.resolve();

/**
 * Opens the file for checking (streamed when large: see openRowSource) and checks every row once,
 * with the progress line on stderr when it is a terminal or --progress is given.
 */
export async function openAndCheck(
  ctx: CliContext,
  file: string,
  values: CheckValues,
  rowReference: boolean,
  writer?: { onChecked: CheckOptions['onChecked']; pause: () => Promise<void> },
): Promise<{ checked: CheckedFile; progress: ProgressLine }> {
  const template = await readMappingTemplate(values.mapping);
  const path = resolve(file);
  await stat(path).catch(() => {
    throw new DeskFailure('USAGE', `Cannot read ${file}. Check the name and that you may read it.`);
  });
  const sink =
    values.progress || ctx.io.errStream?.isTTY
      ? (ctx.io.errStream ?? { write: (t: string) => ctx.io.err(t.replace(/\n$/, '')), isTTY: false })
      : undefined;
  const progress = new ProgressLine(sink, basename(file));
  // Tests make small files go the streamed way; the default is openRowSource's.
  const streamFrom = Number(ctx.io.env.DONATION_DESK_STREAM_FROM_BYTES) || undefined;
  const wantedSheet = values.sheet ?? template?.sheet;
  let source: RowSource;
  try {
    source = await openRowSource(path, {
      ...(wantedSheet ? { sheet: wantedSheet } : {}),
      ...(template?.headerRow ? { headerRow: template.headerRow } : {}),
      ...(streamFrom !== undefined ? { streamFrom } : {}),
      survey: {
        row: () => progress.row(),
        between: async (done, total) => progress.update('Reading', done, total),
      },
    });
    const checked = await checkFileInPasses(source, {
      template,
      rowReference,
      progress,
      pause: async () => {
        await writer?.pause();
        await drained(ctx)();
      },
      ...(writer?.onChecked ? { onChecked: writer.onChecked } : {}),
    });
    return { checked, progress };
  } catch (e) {
    progress.end();
    if (e instanceof SpreadsheetReadError || (e instanceof DeskFailure && e.code !== 'INTERNAL')) {
      throw new DeskFailure('USAGE', e.message);
    }
    if (
      e instanceof Error &&
      'code' in e &&
      (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR')
    ) {
      throw new DeskFailure('USAGE', `Cannot read ${file}. Check the name and that you may read it.`);
    }
    throw e;
  }
}
