import type { NumberStyle } from '../amounts';
import type { DonationAttributes } from '../donation';
import { applyMapping, type MappedIssue } from './applyMapping';
import { compileMapping } from './compileMapping';
import { FIELD_TARGETS, type FieldTarget } from './targets';
import type { MappingTemplate } from './template';

/** One donation as typed into a form: the row's targets as text, and metadata as ordered pairs. */
export interface SingleDonationForm {
  fields: Partial<Record<FieldTarget, string>>;
  metadata: ReadonlyArray<{ key: string; value: string }>;
}

/** An issue of the form, on the field (or the metadata pair, by position) it belongs to. */
export interface SingleDonationIssue extends MappedIssue {
  /** The form field: a target such as `amount`, or `metadata` for a pair (see metadataIndex). */
  target: FieldTarget | 'metadata' | 'donation';
  metadataIndex?: number;
}

export type SingleDonationCheck =
  | { ok: true; donation: DonationAttributes; issues: SingleDonationIssue[] }
  | { ok: false; issues: SingleDonationIssue[] };

const REQUIRED: ReadonlyArray<[FieldTarget, string, string]> = [
  ['recipientId', 'destination.recipientId', 'Enter the recipient: a cause, cause/project or portfolio id.'],
  ['amount', 'funds.amount', 'Enter the amount, such as 25.00.'],
  ['currencyCode', 'funds.currencyCode', 'Choose the currency, such as USD.'],
];

/**
 * Checks one donation typed into a form with exactly the rules a spreadsheet row goes through: the
 * form becomes a one-row sheet whose headers are the targets, mapped to themselves, so amounts,
 * e-mail, country, receipted and metadata read and fail the same way as in Prepare.
 */
export function checkSingleDonation(
  form: SingleDonationForm,
  options: { numberStyle?: NumberStyle } = {},
): SingleDonationCheck {
  const headers: string[] = [];
  const cells: string[] = [];
  const columns: Record<string, string> = {};
  const columnTarget: Array<{ target: SingleDonationIssue['target']; metadataIndex?: number }> = [];
  for (const target of FIELD_TARGETS) {
    const value = form.fields[target];
    if (value === undefined || value.trim() === '') continue;
    headers.push(target);
    cells.push(value);
    columns[target] = target;
    columnTarget.push({ target });
  }
  const issues: SingleDonationIssue[] = [];
  for (const [target, field, message] of REQUIRED) {
    if ((form.fields[target] ?? '').trim() !== '') continue;
    issues.push({ severity: 'error', field, code: 'REQUIRED', message, target });
  }
  const seen = new Map<string, number>();
  form.metadata.forEach((pair, index) => {
    const key = pair.key.trim();
    if (key === '' && pair.value.trim() === '') return;
    if (key === '') {
      issues.push({
        severity: 'error',
        field: 'metadata',
        code: 'METADATA_KEY_EMPTY',
        message: 'This metadata value has no key. Give it a key or remove the pair.',
        target: 'metadata',
        metadataIndex: index,
      });
      return;
    }
    const earlier = seen.get(key.toLowerCase());
    if (earlier !== undefined) {
      issues.push({
        severity: 'error',
        field: `metadata.${key}`,
        code: 'METADATA_KEY_REPEATED',
        message: `Metadata key "${key}" is used twice. Keep one of the pairs.`,
        target: 'metadata',
        metadataIndex: index,
      });
      return;
    }
    seen.set(key.toLowerCase(), index);
    // Headers of the one-row sheet must not collide with the targets' own (a key named "amount").
    const header = `metadata ${index + 1}`;
    headers.push(header);
    cells.push(pair.value);
    columns[header] = `metadata.${key}`;
    columnTarget.push({ target: 'metadata', metadataIndex: index });
  });
  const template: MappingTemplate = { columns, amountUnit: 'major' } as MappingTemplate;
  const compiled = compileMapping(headers, template);
  for (const problem of compiled.problems) {
    // Problems without a header are about required targets with no column: reported above by field.
    if (problem.severity !== 'error' || !problem.header) continue;
    const index = problem.header ? headers.indexOf(problem.header) : -1;
    const place = columnTarget[index] ?? { target: 'donation' as const };
    issues.push({
      severity: 'error',
      field: place.target === 'metadata' ? 'metadata' : place.target,
      code: problem.code,
      message: problem.message,
      ...place,
    });
  }
  const mapped = applyMapping(headers, cells, compiled, {
    ...(options.numberStyle ? { numberStyle: options.numberStyle } : {}),
    reportTrimmed: false,
  });
  for (const issue of mapped.issues) {
    if (issue.columnIndex === undefined && issues.some((i) => i.field === issue.field)) continue;
    const place =
      issue.columnIndex !== undefined
        ? (columnTarget[issue.columnIndex] ?? { target: 'donation' as const })
        : placeOfField(issue.field);
    issues.push({ ...issue, ...place });
  }
  const errors = issues.some((i) => i.severity === 'error');
  if (mapped.ok && !errors) return { ok: true, donation: mapped.donation, issues };
  return { ok: false, issues };
}

/** An issue with no source column (a required field left empty): the form field of its attribute. */
function placeOfField(field: string): { target: SingleDonationIssue['target'] } {
  const byField: Record<string, FieldTarget> = {
    'destination.recipientId': 'recipientId',
    'destination.foundationId': 'foundationId',
    'funds.amount': 'amount',
    'funds.currencyCode': 'currencyCode',
  };
  const direct = byField[field];
  if (direct) return { target: direct };
  if ((FIELD_TARGETS as readonly string[]).includes(field)) return { target: field as FieldTarget };
  if (field.startsWith('metadata')) return { target: 'metadata' };
  return { target: 'donation' };
}
