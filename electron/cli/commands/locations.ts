import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { dispatch } from '../../../shared/contract';
import type { BatchOutcome } from '../../../shared/contract/locationChannels';
import {
  mappingProblems,
  readMappingFile,
  suggestLocationMapping,
  targetLabel,
  targetOfServiceField,
  validateLocationRows,
} from '../../../shared/locations';
import { readSpreadsheet, SpreadsheetReadError } from '../../../shared/spreadsheet';
import { EXIT, exitCodeFor } from '../exitCodes';
import { commandArgs, registerCommand } from '../main';
import { cliSheetJS } from '../sheetInput';
import { count } from '../../../shared/i18n';

/*
 * Exit codes of `locations import`: 0 every row applied; 1 some rows have problems (found locally or
 * refused by the service; the valid rows are applied); 2 the file, the mapping or the arguments cannot
 * be used; 3 the service could not be reached or refused access.
 */

interface RowReport {
  row: number;
  status: 'applied' | 'invalid' | 'failed' | 'notApplied';
  op?: string;
  locationId?: string;
  errors: { column: string | null; message: string }[];
}

const USAGE = `donation-desk locations import FILE [--mapping M.json] [--all-or-nothing] [--json]

  FILE              xlsx, xls, ods, csv, tsv or txt; one row per location
  --mapping M.json  {"name": "Store", "referenceId": "Ref", "contact1.email": "Email", ...}: location
                    field → column header (or 0-based column number); without it, headers are matched
  --all-or-nothing  if the service refuses any row of a batch (up to 1000 rows), apply none of
                    that batch (default: apply the valid rows)
  --json            print {file, rows: [{row, status, op, locationId, errors}], counts} as JSON

Rows whose referenceId is already in the app's register are updated; an Action column with "remove"
removes that location. Exit codes: 0 all rows applied; 1 some rows have problems; 2 the file or mapping
cannot be used; 3 the service could not be reached or refused access.`;

registerCommand('locations', {
  summary: 'Import locations (with tags and contacts) from a spreadsheet.',
  usage: USAGE,
  async run(ctx) {
    const parsed = commandArgs(ctx, { mapping: { type: 'string' }, 'all-or-nothing': { type: 'boolean' } });
    const [sub, file, ...extra] = parsed.positionals;
    if (sub !== 'import' || !file || extra.length) {
      ctx.io.err(`Usage: ${USAGE.split('\n')[0]}`);
      return EXIT.usage;
    }
    const path = resolve(file);
    let sheet;
    try {
      sheet = await readSpreadsheet(new Uint8Array(await readFile(path)), basename(path), {
        sheetJS: cliSheetJS,
      });
    } catch (e) {
      const reason =
        e instanceof SpreadsheetReadError ? e.message : e instanceof Error ? e.message : String(e);
      ctx.io.err(`“${basename(path)}” could not be read: ${reason}`);
      return EXIT.usage;
    }
    let mapping = suggestLocationMapping(sheet.headers);
    if (parsed.values.mapping) {
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(resolve(parsed.values.mapping), 'utf8')) as unknown;
      } catch (e) {
        ctx.io.err(
          `The mapping file could not be read as JSON: ${e instanceof Error ? e.message : String(e)}`,
        );
        return EXIT.usage;
      }
      const read = readMappingFile(raw, sheet.headers);
      if (read.problems.length) {
        ctx.io.err(read.problems.join('\n'));
        return EXIT.usage;
      }
      mapping = read.mapping;
    }
    const problems = mappingProblems(mapping);
    if (problems.length) {
      ctx.io.err(`${problems.join('\n')}\nGive a mapping with --mapping M.json.`);
      return EXIT.usage;
    }
    const headerOf = (target: ReturnType<typeof targetOfServiceField>) => {
      const column = target ? mapping[target] : undefined;
      return column === undefined ? (target ? targetLabel(target) : null) : (sheet.headers[column] ?? null);
    };

    const checked = validateLocationRows(sheet.rows, mapping);
    const reports: RowReport[] = checked.map((r) => ({
      row: r.rowNumber,
      status: r.item ? 'notApplied' : 'invalid',
      errors: r.issues.map((i) => ({ column: headerOf(i.target), message: i.message })),
    }));
    const sendable = checked.flatMap((r, i) => (r.item ? [{ index: i, item: r.item }] : []));
    if (sendable.length) {
      const desk = await ctx.runtime();
      const outcomes: BatchOutcome[] = [];
      // In parts of at most 5000 rows per call (the channel takes 10,000).
      for (let at = 0; at < sendable.length; at += 5000) {
        const result = await dispatch(
          desk.services,
          'locations.batch',
          {
            items: sendable.slice(at, at + 5000).map((s) => s.item),
            applyValid: parsed.values['all-or-nothing'] !== true,
          },
          { transport: 'cli' },
        );
        if (!result.ok) {
          ctx.io.err(result.error.message);
          return exitCodeFor('service', result.error.code);
        }
        outcomes.push(...(result.value as { outcomes: BatchOutcome[] }).outcomes);
      }
      outcomes.forEach((outcome, i) => {
        const report = reports[sendable[i]!.index]!;
        report.status = outcome.status;
        if (outcome.op) report.op = outcome.op;
        if (outcome.status === 'applied') report.locationId = outcome.location.id;
        if (outcome.status === 'failed') {
          report.errors = outcome.errors.map((e) => ({
            column: headerOf(targetOfServiceField(e.field)),
            message: e.message,
          }));
        }
      });
    }
    const counts = {
      rows: reports.length,
      applied: reports.filter((r) => r.status === 'applied').length,
      invalid: reports.filter((r) => r.status === 'invalid').length,
      failed: reports.filter((r) => r.status === 'failed').length,
      notApplied: reports.filter((r) => r.status === 'notApplied').length,
    };
    const allApplied = counts.applied === counts.rows;
    // Any service-wide failure (not about particular rows) is reported the same way on every row.
    const serviceDown =
      reports.length > 0 &&
      reports.every((r) => r.status === 'failed') &&
      new Set(reports.map((r) => r.errors[0]?.message)).size === 1 &&
      reports[0]!.errors[0]?.column === null;
    if (ctx.json) {
      ctx.io.out(JSON.stringify({ file: basename(path), counts, rows: reports }, null, 2));
    } else {
      for (const r of reports) {
        if (r.status === 'applied')
          ctx.io.out(
            `row ${r.row}: ${r.op === 'add' ? 'added' : r.op === 'update' ? 'updated' : 'removed'} (${r.locationId})`,
          );
        else if (r.status === 'notApplied') ctx.io.out(`row ${r.row}: not applied (another row was refused)`);
        else
          for (const e of r.errors)
            ctx.io.err(`row ${r.row}${e.column ? `, ${e.column}` : ''}: ${e.message}`);
      }
      ctx.io.out(
        `${counts.applied} of ${count(counts.rows, 'row')} applied${counts.invalid ? `, ${counts.invalid} with problems found before sending` : ''}${counts.failed ? `, ${counts.failed} refused by the service` : ''}${counts.notApplied ? `, ${counts.notApplied} not applied` : ''}.`,
      );
    }
    if (serviceDown) return EXIT.service;
    return allApplied ? EXIT.ok : EXIT.problems;
  },
});
