import { z } from 'zod';
import { DEFAULT_REFERENCE_KEY, mappingTemplateSchema, type MappingTemplate } from '../mapping';

/** What a workspace keeps about its mapping: the shareable template plus per-file choices. */
export const workspaceMappingSchema = z.object({
  template: mappingTemplateSchema,
  /** How amounts are written in this file; 'auto' detects it from the amount column. */
  numberStyle: z.enum(['auto', 'dot-decimal', 'comma-decimal']).default('auto'),
  /** The metadata pair that ties each donation to its workspace row, so errors come back to the right cell. */
  reference: z
    .object({ enabled: z.boolean(), key: z.string() })
    .default({ enabled: true, key: DEFAULT_REFERENCE_KEY }),
});
export type WorkspaceMapping = z.output<typeof workspaceMappingSchema>;

export function parseWorkspaceMapping(value: unknown): WorkspaceMapping | null {
  const parsed = workspaceMappingSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function emptyTemplate(): MappingTemplate {
  return { columns: {}, amountUnit: 'major' };
}
