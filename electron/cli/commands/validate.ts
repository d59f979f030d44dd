import { count } from '../../../shared/i18n';
import type { MappedIssue } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import { sourceFileLabel } from '../../../shared/spreadsheet/sourceNames';
import { EXIT } from '../exitCodes';
import { commandArgs, registerCommand } from '../main';
import { eachCheckedRow } from '../stream/checkInPasses';
import { CHECK_OPTIONS, drained, openAndCheck } from '../stream/openChecked';
import './build';

/** Issues listed in the text report unless --max-issues says otherwise (--json lists them all). */
const DEFAULT_MAX_ISSUES = 200;

interface CliIssue {
  severity: 'error' | 'warning';
  row: number;
  column: string | null;
  field: string;
  code: string;
  message: string;
}

const cliIssue = (row: number, issue: MappedIssue): CliIssue => ({
  severity: issue.severity,
  row,
  column: issue.column ?? null,
  field: issue.field,
  code: issue.code,
  message: issue.message,
});

/** Thrown to end a listing pass early once enough issues are listed. */
class ListedEnough extends Error {}

registerCommand('validate', {
  summary: 'Check every row of a spreadsheet against the service’s rules, offline.',
  usage: `donation-desk validate FILE [--mapping M.json] [--sheet NAME] [--no-row-reference] [--max-issues N] [--progress] [--json]

Checks the rows as an upload would: with the row reference pair the app adds to each donation (it
counts against the service's 100 metadata pairs) unless --no-row-reference, the app's switch.
Files of any size: large CSV and xlsx files are read in passes, a piece at a time. A progress line
goes to stderr when it is a terminal, or with --progress.
The text report lists the first ${DEFAULT_MAX_ISSUES} issues (--max-issues N to change) and counts the rest.
Exit codes: 0 every row is valid; 1 some rows are not; 2 the file or arguments cannot be used.
--json prints {"file","sheet","headerRow","counts":{"rows","valid","invalid","warnings"},
"issues":[{"severity","row","column","field","code","message"}],"totals":[{"currencyCode","count","amount"}]}
with every issue, row the spreadsheet's own row number and amount in minor units.`,
  async run(ctx) {
    const args = commandArgs(ctx, { ...CHECK_OPTIONS, 'max-issues': { type: 'string' } });
    const file = args.positionals[0];
    if (!file) throw new DeskFailure('USAGE', 'Name the spreadsheet to check: donation-desk validate FILE');
    const maxIssues =
      args.values['max-issues'] === undefined ? DEFAULT_MAX_ISSUES : Number(args.values['max-issues']);
    if (!Number.isSafeInteger(maxIssues) || maxIssues < 0) {
      throw new DeskFailure('USAGE', 'Give --max-issues a whole number, 0 or more.');
    }
    const { checked, progress } = await openAndCheck(
      ctx,
      file,
      args.values,
      !args.values['no-row-reference'],
    );
    const { layout } = checked.source;
    const counts = checked.stats.counts();
    const issueCount = checked.stats.issueCount();
    const pause = drained(ctx);
    if (ctx.json) {
      // Written piece by piece: a large sheet can have millions of issues, and one JSON string of
      // them all would not fit in memory.
      const head = JSON.stringify({
        file: layout.fileName,
        sheet: layout.sheet,
        headerRow: layout.headerRow,
        counts,
      });
      progress.end();
      ctx.io.out(`${head.slice(0, -1)},"issues":[`);
      let first = true;
      if (issueCount > 0) {
        await eachCheckedRow(
          checked,
          'Listing',
          progress,
          (_index, row, result, fileIssues) => {
            for (const issue of [...result.issues, ...fileIssues]) {
              progress.end();
              ctx.io.out(`${first ? '' : ','}${JSON.stringify(cliIssue(row.rowNumber, issue))}`);
              first = false;
            }
          },
          pause,
        );
      }
      progress.end();
      const totals = checked.stats.totals().map((t) => ({
        currencyCode: t.currencyCode,
        count: t.count,
        amount: t.amount,
      }));
      ctx.io.out(`],"totals":${JSON.stringify(totals)}}`);
    } else {
      progress.end();
      ctx.io.out(
        `${sourceFileLabel({ fileName: layout.fileName, format: layout.format, sheet: layout.sheet })} · headers in row ${layout.headerRow}`,
      );
      if (checked.suggested) ctx.io.out('Columns matched automatically (give --mapping to fix the choice).');
      let listed = 0;
      if (issueCount > 0 && maxIssues > 0) {
        try {
          await eachCheckedRow(
            checked,
            'Listing',
            progress,
            (_index, row, result, fileIssues) => {
              for (const i of [...result.issues, ...fileIssues]) {
                progress.end();
                ctx.io.out(
                  `  row ${row.rowNumber}${i.column ? `, ${i.column}` : ''}: ${i.severity === 'error' ? 'error' : 'warning'}: ${i.message}`,
                );
                // No need to read further once the list is full: the rest is already counted.
                if (++listed >= maxIssues) throw new ListedEnough();
              }
            },
            pause,
          );
        } catch (e) {
          if (!(e instanceof ListedEnough)) throw e;
        }
      }
      progress.end();
      if (issueCount > listed) {
        ctx.io.out(
          `  … and ${count(issueCount - listed, 'more issue')} not listed (give --max-issues ${issueCount} to list them all, or --json).`,
        );
      }
      const c = counts;
      ctx.io.out(
        `${count(c.rows, 'row')}: ${c.valid} valid, ${c.invalid} invalid, ${c.warnings} with warnings.`,
      );
      for (const t of checked.stats.totals())
        ctx.io.out(`  ${t.currencyCode}: ${count(t.count, 'donation')}, ${t.amount} minor units`);
    }
    return counts.invalid === 0 ? EXIT.ok : EXIT.problems;
  },
});
