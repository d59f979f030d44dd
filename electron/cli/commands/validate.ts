import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { serializeBulkFile } from '../../../shared/bulk-file';
import type { DonationAttributes } from '../../../shared/donation';
import { DeskFailure } from '../../../shared/result';
import { checkWorkspace, workspaceMappingSchema, type WorkspaceCheck } from '../../../shared/workspace';
import { EXIT } from '../exitCodes';
import { commandArgs, registerCommand } from '../main';
import { readSheetInput, type SheetInput } from '../sheetInput';
import { count, plural } from '../../../shared/i18n';
import { sourceFileLabel } from '../../../shared/spreadsheet/sourceNames';

/** A file checked on its own has no workspace; its id only names the (unused) reference pair. */
const FILE_ID = '00000000-0000-4000-8000-000000000000';

function check(input: SheetInput): WorkspaceCheck {
  const mapping = workspaceMappingSchema.parse({
    template: input.template,
    numberStyle: 'auto',
    // A bulk file built from a file alone is not tied to a workspace, so it carries no reference pair.
    reference: { enabled: false, key: 'ddRef' },
  });
  const rows = input.sheet.rows.map((r, key) => ({ key, rowNumber: r.rowNumber, cells: r.cells }));
  return checkWorkspace(FILE_ID, input.sheet.headers, mapping, rows);
}

interface CliIssue {
  severity: 'error' | 'warning';
  row: number;
  column: string | null;
  field: string;
  code: string;
  message: string;
}

function* issuesOf(input: SheetInput, result: WorkspaceCheck): Generator<CliIssue> {
  const rowNumber = (i: number) => input.sheet.rows[i]?.rowNumber ?? i + 1;
  for (let i = 0; i < result.results.length; i++) {
    const r = result.results[i];
    if (!r) continue;
    for (const issue of [...r.issues, ...(result.fileIssues.get(i) ?? [])]) {
      yield {
        severity: issue.severity,
        row: rowNumber(i),
        column: issue.column ?? null,
        field: issue.field,
        code: issue.code,
        message: issue.message,
      };
    }
  }
}

registerCommand('validate', {
  summary: 'Check every row of a spreadsheet against the service’s rules, offline.',
  usage: `donation-desk validate FILE [--mapping M.json] [--sheet NAME] [--json]

Exit codes: 0 every row is valid; 1 some rows are not; 2 the file or arguments cannot be used.
--json prints {"file","sheet","headerRow","counts":{"rows","valid","invalid","warnings"},
"issues":[{"severity","row","column","field","code","message"}],"totals":[{"currencyCode","count","amount"}]}
with row the spreadsheet's own row number and amount in minor units.`,
  async run(ctx) {
    const args = commandArgs(ctx, { mapping: { type: 'string' }, sheet: { type: 'string' } });
    const file = args.positionals[0];
    if (!file) throw new DeskFailure('USAGE', 'Name the spreadsheet to check: donation-desk validate FILE');
    const input = await readSheetInput(file, args.values.mapping, args.values.sheet);
    const result = check(input);
    const issues = issuesOf(input, result);
    if (ctx.json) {
      // Written piece by piece: a 500,000-row sheet can have hundreds of thousands of issues, and one
      // JSON string of them all would double the memory the check itself needs.
      const head = JSON.stringify({
        file: input.fileName,
        sheet: input.sheet.sheet,
        headerRow: input.sheet.headerRow,
        counts: result.counts,
      });
      ctx.io.out(`${head.slice(0, -1)},"issues":[`);
      let first = true;
      for (const issue of issues) {
        ctx.io.out(`${first ? '' : ','}${JSON.stringify(issue)}`);
        first = false;
      }
      const totals = result.totals.map((t) => ({
        currencyCode: t.currencyCode,
        count: t.count,
        amount: t.amount,
      }));
      ctx.io.out(`],"totals":${JSON.stringify(totals)}}`);
    } else {
      ctx.io.out(
        `${sourceFileLabel({ fileName: input.fileName, format: input.sheet.format, sheet: input.sheet.sheet })} · headers in row ${input.sheet.headerRow}`,
      );
      if (input.suggested) ctx.io.out('Columns matched automatically (give --mapping to fix the choice).');
      for (const i of issues) {
        ctx.io.out(
          `  row ${i.row}${i.column ? `, ${i.column}` : ''}: ${i.severity === 'error' ? 'error' : 'warning'}: ${i.message}`,
        );
      }
      const c = result.counts;
      ctx.io.out(
        `${count(c.rows, 'row')}: ${c.valid} valid, ${c.invalid} invalid, ${c.warnings} with warnings.`,
      );
      for (const t of result.totals)
        ctx.io.out(`  ${t.currencyCode}: ${count(t.count, 'donation')}, ${t.amount} minor units`);
    }
    return result.counts.invalid === 0 ? EXIT.ok : EXIT.problems;
  },
});

registerCommand('build', {
  summary: 'Write the bulk file (.json.gz) the service accepts, from a spreadsheet.',
  usage: `donation-desk build FILE --out bulk.json.gz [--mapping M.json] [--sheet NAME] [--skip-invalid] [--json]

Refuses while invalid rows remain, unless --skip-invalid, which lists the rows it left out.
Exit codes: 0 written; 1 invalid rows remain (nothing written); 2 the file or arguments cannot be used.`,
  async run(ctx) {
    const args = commandArgs(ctx, {
      mapping: { type: 'string' },
      sheet: { type: 'string' },
      out: { type: 'string' },
      'skip-invalid': { type: 'boolean' },
    });
    const file = args.positionals[0];
    const out = args.values.out;
    if (!file || !out) throw new DeskFailure('USAGE', 'Usage: donation-desk build FILE --out bulk.json.gz');
    const input = await readSheetInput(file, args.values.mapping, args.values.sheet);
    const result = check(input);
    const invalidRows = result.results.flatMap((r, i) =>
      r.ok ? [] : [input.sheet.rows[i]?.rowNumber ?? i + 1],
    );
    if (invalidRows.length && !args.values['skip-invalid']) {
      ctx.io.err(
        `${count(invalidRows.length, 'row')} ${plural(invalidRows.length, { one: 'is', other: 'are' })} invalid (rows ${invalidRows.slice(0, 20).join(', ')}${invalidRows.length > 20 ? ', …' : ''}). ` +
          'Fix them (see donation-desk validate), or give --skip-invalid to leave them out. Nothing was written.',
      );
      return EXIT.problems;
    }
    const donations = result.results.flatMap((r) => (r.ok ? [r.donation as DonationAttributes] : []));
    const target = resolve(out);
    const temp = `${target}.${process.pid}.tmp`;
    try {
      // Streamed: a large file never exists as one string in memory.
      await pipeline(Readable.from(serializeBulkFile(donations)), createGzip(), createWriteStream(temp));
      await rename(temp, target);
    } catch (e) {
      await rm(temp, { force: true });
      throw new DeskFailure('USAGE', `Could not write ${out}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (ctx.json) {
      ctx.io.out(
        JSON.stringify({ out: target, donations: donations.length, skippedRows: invalidRows }, null, 2),
      );
    } else {
      ctx.io.out(`Wrote ${out}: ${count(donations.length, 'donation')}.`);
      if (invalidRows.length)
        ctx.io.out(`Left out ${invalidRows.length} invalid rows: ${invalidRows.join(', ')}.`);
    }
    return EXIT.ok;
  },
});
