import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { bulkEntry } from '../../../shared/bulk-file';
import { count, plural } from '../../../shared/i18n';
import { DeskFailure } from '../../../shared/result';
import { EXIT } from '../exitCodes';
import { commandArgs, registerCommand } from '../main';
import type { CheckedFile } from '../stream/checkInPasses';
import { CHECK_OPTIONS, openAndCheck } from '../stream/openChecked';
import type { ProgressLine } from '../stream/progress';

/** Rows named in the text report of rows left out; --json names them all. */
const ROWS_NAMED = 200;

function rowList(rows: number[], total: number): string {
  return `${rows.join(', ')}${total > rows.length ? `, … (${total - rows.length} more)` : ''}`;
}

registerCommand('build', {
  summary: 'Write the bulk file (.json.gz) the service accepts, from a spreadsheet.',
  usage: `donation-desk build FILE --out bulk.json.gz [--mapping M.json] [--sheet NAME] [--skip-invalid] [--no-row-reference] [--progress] [--json]

Refuses while invalid rows remain, unless --skip-invalid, which lists the rows it left out.
Files of any size: large CSV and xlsx files are read in passes and the bulk file is written as the
rows are checked. A progress line goes to stderr when it is a terminal, or with --progress.
A bulk file built from a file alone is tied to no workspace, so it never carries the app's row
reference pair; --no-row-reference is accepted so the same options work for validate and upload.
Exit codes: 0 written; 1 invalid rows remain (nothing written); 2 the file or arguments cannot be used.`,
  async run(ctx) {
    const args = commandArgs(ctx, {
      ...CHECK_OPTIONS,
      out: { type: 'string' },
      'skip-invalid': { type: 'boolean' },
    });
    const file = args.positionals[0];
    const out = args.values.out;
    if (!file || !out) throw new DeskFailure('USAGE', 'Usage: donation-desk build FILE --out bulk.json.gz');
    const target = resolve(out);
    const temp = `${target}.${process.pid}.tmp`;
    // Written in the same pass as the check, entries gathered into pieces of about a megabyte and
    // handed to gzip; the pass waits whenever gzip or the disk falls behind. Invalid rows found
    // without --skip-invalid remove the file at the end: nothing is written then.
    const gzip = createGzip();
    const written = pipeline(gzip, createWriteStream(temp));
    written.catch(() => undefined);
    let parts: string[] = ['{"data":['];
    let size = 0;
    let donations = 0;
    let checked: CheckedFile;
    let progress: ProgressLine;
    try {
      ({ checked, progress } = await openAndCheck(ctx, file, args.values, false, {
        onChecked: (result) => {
          if (!result.ok) return;
          const entry = `${donations === 0 ? '' : ','}${JSON.stringify(bulkEntry(result.donation))}`;
          donations++;
          parts.push(entry);
          size += entry.length;
          if (size < 1 << 20) return;
          gzip.write(parts.join(''));
          parts = [];
          size = 0;
        },
        pause: async () => {
          if (gzip.writableNeedDrain) await Promise.race([once(gzip, 'drain'), written]);
        },
      }));
      parts.push(']}');
      gzip.end(parts.join(''));
      await written;
    } catch (e) {
      gzip.destroy();
      await rm(temp, { force: true });
      if (e instanceof DeskFailure) throw e;
      throw new DeskFailure('USAGE', `Could not write ${out}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const { stats } = checked;
    const invalid = stats.counts().invalid;
    if (invalid > 0 && !args.values['skip-invalid']) {
      await rm(temp, { force: true });
      progress.end();
      ctx.io.err(
        `${count(invalid, 'row')} ${plural(invalid, { one: 'is', other: 'are' })} invalid (rows ${stats.invalidRows(20).join(', ')}${invalid > 20 ? ', …' : ''}). ` +
          'Fix them (see donation-desk validate), or give --skip-invalid to leave them out. Nothing was written.',
      );
      return EXIT.problems;
    }
    try {
      await rename(temp, target);
    } catch (e) {
      await rm(temp, { force: true });
      throw new DeskFailure('USAGE', `Could not write ${out}: ${e instanceof Error ? e.message : String(e)}`);
    }
    progress.end();
    if (ctx.json) {
      ctx.io.out(JSON.stringify({ out: target, donations, skippedRows: stats.invalidRows() }, null, 2));
    } else {
      ctx.io.out(`Wrote ${out}: ${count(donations, 'donation')}.`);
      if (invalid)
        ctx.io.out(`Left out ${invalid} invalid rows: ${rowList(stats.invalidRows(ROWS_NAMED), invalid)}.`);
    }
    return EXIT.ok;
  },
});
