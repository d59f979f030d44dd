/**
 * The reference metadata pair that ties each uploaded donation to its workspace and row, so error
 * files, declines and partial results match back with certainty. Value: `<workspaceShortId>:<row>`
 * where row is the workspace row's stable key (0 and up; rows added in the app have no spreadsheet
 * row number, so the key is used rather than the row number). The key is configurable; this is the default.
 */
export const DEFAULT_REFERENCE_KEY = 'ddRef';

/**
 * Metadata key carrying, on a corrected donation, the id of the declined donation it replaces: the
 * link then lives at the service too, whether the correction went one by one or in a bulk file.
 */
export const REPLACES_KEY = 'ddReplaces';

/**
 * Metadata key carrying a single donation's own id from this app (a UUID chosen before it is sent),
 * so a donation whose answer was lost can be recognised in a listing.
 */
export const SINGLE_KEY = 'ddSingle';

export interface ReferencePair {
  key: string;
  value: string;
}

export function makeReference(
  workspaceShortId: string,
  row: number,
  key: string = DEFAULT_REFERENCE_KEY,
): ReferencePair {
  return { key, value: `${workspaceShortId}:${row}` };
}

/** Reads a reference value back; undefined when it is not one of ours. */
export function parseReference(value: unknown): { workspace: string; row: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^([A-Za-z0-9_-]{1,64}):(0|[1-9][0-9]{0,8})$/.exec(value);
  if (!match) return undefined;
  return { workspace: match[1] as string, row: Number(match[2]) };
}
