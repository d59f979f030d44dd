import { z } from 'zod';
import { currencyCodeSchema, isFoundationId } from '../donation';
import { isMappingTarget, metadataKeyOf, type MappingTarget } from './targets';

/** `recipientId`, `amount`, …, or `metadata.<key>` with a valid key. */
export const mappingTargetSchema = z
  .string()
  .max(300)
  .refine(isMappingTarget, {
    message:
      'Not a mapping target: use recipientId, foundationId, amount, currencyCode, donor.…, or metadata.<key>.',
  })
  .transform((s) => s as MappingTarget);

/**
 * A saved column mapping, exactly the JSON the app imports and exports and the CLI reads:
 * `{"sheet": "Donations", "headerRow": 3, "columns": {"Charity ID": "recipientId", "Gift amount":
 * "amount", "Employee ID": "metadata.employeeId"}, "fixed": {"currencyCode": "USD"}, "amountUnit": "major"}`.
 * `headerRow` counts from 1 as the spreadsheet does. Unknown properties are refused so a typo in a
 * hand-edited file is reported, not ignored.
 */
export const mappingTemplateSchema = z
  .strictObject({
    sheet: z.string().min(1).max(200).optional(),
    headerRow: z.number().int().min(1).optional(),
    columns: z
      .record(z.string().min(1).max(32_767), mappingTargetSchema)
      .refine((columns) => Object.keys(columns).length <= 1000, 'A template maps at most 1,000 columns.'),
    fixed: z
      .strictObject({
        currencyCode: currencyCodeSchema.optional(),
        foundationId: z
          .string()
          .max(200)
          .refine(isFoundationId, { message: 'Not a foundation id.' })
          .optional(),
      })
      .optional(),
    amountUnit: z.enum(['major', 'minor']).default('major'),
  })
  .superRefine((template, ctx) => {
    const seen = new Map<string, string>();
    for (const [header, target] of Object.entries(template.columns)) {
      // Metadata keys must be unique too: two columns cannot fill one pair.
      const earlier = seen.get(target);
      if (earlier !== undefined) {
        const what = metadataKeyOf(target) !== undefined ? `metadata key "${metadataKeyOf(target)}"` : target;
        ctx.addIssue({
          code: 'custom',
          path: ['columns', header],
          message: `Columns "${earlier}" and "${header}" both map to ${what}. Map only one of them.`,
        });
      } else seen.set(target, header);
    }
  });

/** A template as parsed (amountUnit filled in). */
export type MappingTemplate = z.output<typeof mappingTemplateSchema>;
/** A template as written in JSON (amountUnit may be left out). */
export type MappingTemplateInput = z.input<typeof mappingTemplateSchema>;

/** Parses template JSON text or a parsed object; errors are plain sentences with the property path. */
export function parseMappingTemplate(
  input: unknown,
): { ok: true; template: MappingTemplate } | { ok: false; message: string } {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return {
        ok: false,
        message: 'The mapping file is not valid JSON. Export it again from Donation Desk or fix the syntax.',
      };
    }
  }
  const parsed = mappingTemplateSchema.safeParse(value);
  if (parsed.success) return { ok: true, template: parsed.data };
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? ` (at ${first.path.map(String).join('.')})` : '';
  return {
    ok: false,
    message: `The mapping file is not usable${where}: ${first?.message ?? 'unknown problem'}`,
  };
}
