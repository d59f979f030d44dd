import { z } from 'zod';
import { uploadStateSchema } from './uploadChannels';

/** The longest text one cell holds: Excel's own limit, so any cell a person can type fits. */
export const MAX_CELL_LENGTH = 32_767;
/**
 * The most characters of text one workspace holds in all its cells: room for 30,000 rows of 100
 * metadata values at the service's 190 characters each, and what main can hold open comfortably.
 */
export const MAX_WORKSPACE_TEXT = 640_000_000;
/** The longest name (of a workspace, a template, a sheet). */
export const MAX_NAME_LENGTH = 200;
/** The most characters a column mapping may take as JSON. */
export const MAX_MAPPING_CHARS = 1_000_000;

const cellText = z
  .string()
  .max(MAX_CELL_LENGTH, `A cell holds at most ${MAX_CELL_LENGTH.toLocaleString('en-US')} characters.`);

/** A row of the workspace: `key` is stable for its life; `rowNumber` is the source sheet's (null if added). */
export const workspaceRowSchema = z.object({
  key: z.number().int().nonnegative(),
  rowNumber: z.number().int().positive().nullable(),
  cells: z.array(cellText).max(1000, 'A row holds at most 1,000 cells.'),
});
export type WorkspaceRow = z.infer<typeof workspaceRowSchema>;

const isRowNumber = (n: unknown): boolean => n === null || (Number.isSafeInteger(n) && (n as number) > 0);

/**
 * The most rows one workspace holds: a worksheet's own limit in Excel, so any sheet a person can
 * open fits. A request for more is refused before its rows are unpacked.
 */
export const MAX_WORKSPACE_ROWS = 1_048_576;
/** The most cells (rows × columns) one workspace holds: Excel's rows at 16 columns each. */
export const MAX_WORKSPACE_CELLS = MAX_WORKSPACE_ROWS * 16;
/** The most columns one workspace holds. */
export const MAX_WORKSPACE_COLUMNS = 1000;

/** Whether `rows` rows of `width` cells stay within the limits above. */
export function withinWorkspaceLimits(rows: number, width: number): boolean {
  return rows <= MAX_WORKSPACE_ROWS && width <= MAX_WORKSPACE_COLUMNS && rows * width <= MAX_WORKSPACE_CELLS;
}

/**
 * The same rules as `workspaceRowSchema.strict()` for a whole list, checked by hand: zod takes about
 * a second for 100,000 rows where this loop takes a few milliseconds, and checking them is all main
 * does with the rows of a new workspace before writing them. Unknown properties are refused rather
 * than dropped. A test holds this to zod's answers case by case.
 */
export function isWorkspaceRowList(value: unknown): value is WorkspaceRow[] {
  if (!Array.isArray(value) || value.length > MAX_WORKSPACE_ROWS) return false;
  let cellCount = 0;
  let textLength = 0;
  for (let i = 0; i < value.length; i++) {
    const row: unknown = value[i];
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return false;
    let properties = 0;
    for (const name in row) {
      if (!Object.hasOwn(row, name)) continue;
      if (name !== 'key' && name !== 'rowNumber' && name !== 'cells') return false;
      properties++;
    }
    const { key, rowNumber, cells } = row as Record<string, unknown>;
    if (properties !== 3 || !Number.isSafeInteger(key) || (key as number) < 0) return false;
    if (!isRowNumber(rowNumber) || !Array.isArray(cells) || cells.length > MAX_WORKSPACE_COLUMNS)
      return false;
    cellCount += cells.length;
    if (cellCount > MAX_WORKSPACE_CELLS) return false;
    for (let c = 0; c < cells.length; c++) {
      const cell: unknown = cells[c];
      if (typeof cell !== 'string' || cell.length > MAX_CELL_LENGTH) return false;
      textLength += cell.length;
    }
    if (textLength > MAX_WORKSPACE_TEXT) return false;
  }
  return true;
}

/** Many rows at once (a new workspace): see isWorkspaceRowList. */
export const workspaceRowListSchema = z.custom<WorkspaceRow[]>(isWorkspaceRowList, {
  message:
    'Rows must each be {key, rowNumber, cells} with a whole-number key, a row number or null, and text cells; at most 1,048,576 rows, 1,000 columns, 16,777,216 cells, 32,767 characters a cell and 640,000,000 characters in all.',
});

export const workspaceSourceSchema = z.object({
  fileName: z.string().max(500),
  format: z.string().max(10),
  sheet: z.string().max(MAX_NAME_LENGTH),
  headerRow: z.number().int().positive(),
  headerRowCount: z.number().int().positive().default(1),
  totalsRow: z
    .object({ rowNumber: z.number().int(), cells: z.array(cellText).max(MAX_WORKSPACE_COLUMNS) })
    .nullable()
    .default(null),
  skippedBlankRows: z.number().int().nonnegative().default(0),
  warnings: z.array(z.string().max(10_000)).max(10_000).default([]),
  /** The file's size in bytes and SHA-256 (hex) as read, for the audit trail; absent for rows made in the app. */
  fileBytes: z.number().int().nonnegative().optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type WorkspaceSource = z.infer<typeof workspaceSourceSchema>;

/** The mapping as the shared template format; checked in full by shared/mapping where it is applied. */
export const workspaceMappingSchema = z
  .record(z.string().max(MAX_CELL_LENGTH), z.unknown())
  .refine(
    (mapping) => JSON.stringify(mapping).length <= MAX_MAPPING_CHARS,
    `A column mapping takes at most ${MAX_MAPPING_CHARS.toLocaleString('en-US')} characters.`,
  );

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
    column: z
      .number()
      .int()
      .nonnegative()
      .max(MAX_WORKSPACE_COLUMNS - 1, 'A workspace has at most 1,000 columns.'),
    value: cellText,
  }),
  z.object({
    op: z.literal('insert'),
    index: z.number().int().nonnegative().max(MAX_WORKSPACE_ROWS),
    row: workspaceRowSchema,
  }),
  z.object({ op: z.literal('delete'), key: z.number().int() }),
  z.object({ op: z.literal('mapping'), mapping: workspaceMappingSchema.nullable() }),
  z.object({ op: z.literal('rename'), name: z.string().trim().min(1).max(MAX_NAME_LENGTH) }),
]);
export type WorkspaceEdit = z.infer<typeof workspaceEditSchema>;

/**
 * Where a workspace stands with the service, read from the upload ledger (never stored with the
 * workspace): not uploaded; uploaded (with its upload); needs repair (an upload the service
 * rejected, not yet corrected); corrected (its rejected rows were sent again in a later upload).
 */
export const workspaceStandingSchema = z.object({
  kind: z.enum(['not-uploaded', 'uploaded', 'needs-repair', 'corrected']),
  /** The upload it is about: the rejected one for needs-repair, else the latest. */
  upload: z
    .object({
      uploadId: z.string(),
      createdAt: z.string(),
      environment: z.string(),
      /** The upload's own state (waiting-approval, sending, following, processed, error, stopped). */
      state: uploadStateSchema,
      /** The rejected bulk intent to repair (needs-repair only). */
      intentId: z.string().nullable(),
    })
    .nullable(),
});
export type WorkspaceStanding = z.infer<typeof workspaceStandingSchema>;

export const workspaceMetaSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: workspaceStateSchema,
  source: workspaceSourceSchema,
  counts: workspaceCountsSchema.nullable(),
  /** Filled in from the upload ledger when listed or opened. */
  standing: workspaceStandingSchema.optional(),
  /**
   * When listed: why this workspace cannot be opened (its saved rows damaged or too large) and what
   * to do, in plain words. Absent for a workspace that opens.
   */
  unopenable: z.string().optional(),
});
export type WorkspaceMeta = z.infer<typeof workspaceMetaSchema>;

/** What creating a workspace answers: the renderer already has the headers, rows and mapping it sent. */
export const workspaceCreatedSchema = workspaceMetaSchema.extend({
  nextKey: z.number().int().nonnegative(),
  version: z.number().int().nonnegative(),
});
export type WorkspaceCreated = z.infer<typeof workspaceCreatedSchema>;

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
