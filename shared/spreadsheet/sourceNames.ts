/**
 * How a workspace's source file is named to people. A CSV, TSV or TXT file has no sheets: the
 * reader gives its one table the stand-in name TEXT_SHEET_NAME, which is not in the person's file
 * and so is never shown for it. A workbook's sheet is named, since it may hold several.
 */
const TEXT_FORMATS: ReadonlySet<string> = new Set(['csv', 'tsv', 'txt']);

export interface SourceOfWorkspace {
  fileName: string;
  /** The format the file was read as (SpreadsheetFormat; kept as text in a workspace). */
  format: string;
  sheet: string;
}

/** Whether the file's format has sheets with names of their own (a workbook), as opposed to plain text. */
export function hasNamedSheets(format: string): boolean {
  return !TEXT_FORMATS.has(format.toLowerCase());
}

/** A new workspace's name: "november" for november.csv, "gifts (November)" for gifts.xlsx's sheet November. */
export function workspaceNameFor(source: SourceOfWorkspace): string {
  const base = source.fileName.replace(/\.[^.]+$/, '') || source.fileName;
  return hasNamedSheets(source.format) ? `${base} (${source.sheet})` : base;
}

/**
 * A name no other workspace has, so two imports of the same sheet can be told apart in every list:
 * "gifts (November)", then "gifts (November) 2", "gifts (November) 3".
 */
export function uniqueWorkspaceName(name: string, taken: Iterable<string>): string {
  const names = new Set([...taken].map((n) => n.trim().toLowerCase()));
  if (!names.has(name.trim().toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name} ${n}`;
    if (!names.has(candidate.toLowerCase())) return candidate;
  }
}

/** Where the rows came from, for a line of text: "november.csv", or "gifts.xlsx · November" for a workbook. */
export function sourceFileLabel(source: SourceOfWorkspace): string {
  return hasNamedSheets(source.format) && source.sheet
    ? `${source.fileName} · ${source.sheet}`
    : source.fileName;
}
