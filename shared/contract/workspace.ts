import { z } from 'zod';

/** A row of the workspace: `key` is stable for its life; `rowNumber` is the source sheet's (null if added). */
export const workspaceRowSchema = z.object({
  key: z.number().int().nonnegative(),
  rowNumber: z.number().int().positive().nullable(),
  cells: z.array(z.string()),
});
export type WorkspaceRow = z.infer<typeof workspaceRowSchema>;

export const workspaceSourceSchema = z.object({
  fileName: z.string().max(500),
  format: z.string().max(10),
  sheet: z.string().max(200),
  headerRow: z.number().int().positive(),
  headerRowCount: z.number().int().positive().default(1),
  totalsRow: z
    .object({ rowNumber: z.number().int(), cells: z.array(z.string()) })
    .nullable()
    .default(null),
  skippedBlankRows: z.number().int().nonnegative().default(0),
  warnings: z.array(z.string()).default([]),
});
export type WorkspaceSource = z.infer<typeof workspaceSourceSchema>;

/** The mapping as the shared template format; checked in full by shared/mapping where it is applied. */
export const workspaceMappingSchema = z.record(z.string(), z.unknown());

export const workspaceCountsSchema = z.object({
  rows: z.number().int().nonnegative(),
  valid: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
});
export type WorkspaceCounts = z.infer<typeof workspaceCountsSchema>;

export const workspaceStateSchema = z.enum([
  'draft',
  'ready',
  'uploading',
  'uploaded',
  'needs-repair',
  'done',
]);

/** One change to a workspace. Undo is a new edit with the old value, so the journal only grows. */
export const workspaceEditSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('set'),
    key: z.number().int(),
    column: z.number().int().nonnegative(),
    value: z.string(),
  }),
  z.object({ op: z.literal('insert'), index: z.number().int().nonnegative(), row: workspaceRowSchema }),
  z.object({ op: z.literal('delete'), key: z.number().int() }),
  z.object({ op: z.literal('mapping'), mapping: workspaceMappingSchema.nullable() }),
  z.object({ op: z.literal('rename'), name: z.string().trim().min(1).max(200) }),
]);
export type WorkspaceEdit = z.infer<typeof workspaceEditSchema>;

export const workspaceMetaSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: workspaceStateSchema,
  source: workspaceSourceSchema,
  counts: workspaceCountsSchema.nullable(),
});
export type WorkspaceMeta = z.infer<typeof workspaceMetaSchema>;

export const workspaceSchema = workspaceMetaSchema.extend({
  headers: z.array(z.string()),
  rows: z.array(workspaceRowSchema),
  nextKey: z.number().int().nonnegative(),
  mapping: workspaceMappingSchema.nullable(),
  /** Edits applied so far; the renderer sends edits in order and can tell if one went missing. */
  version: z.number().int().nonnegative(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const workspaceIdSchema = z.string().regex(/^[a-z0-9-]{8,64}$/, 'Not a workspace id.');
