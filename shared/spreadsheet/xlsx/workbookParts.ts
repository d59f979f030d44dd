import { SpreadsheetReadError } from '../errors';
import { FastReaderUnsupported } from './fastReaderUnsupported';
import { withoutRootPrefix } from './namespacePrefix';
import { findStartTags, readAttributes } from './xmlText';
import type { ZipArchive } from './zipArchive';

export interface WorkbookSheet {
  name: string;
  /** Zip path of the sheet's XML, e.g. `xl/worksheets/sheet1.xml`. */
  path: string;
}

export interface WorkbookParts {
  sheets: WorkbookSheet[];
  date1904: boolean;
  sharedStringsPath?: string;
  stylesPath?: string;
}

function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

/** The workbook's main part, found through the package relationships like Excel does. */
function workbookPath(archive: ZipArchive): string {
  const rels = withoutRootPrefix(archive.readText('_rels/.rels') ?? '');
  if (rels) {
    for (const tag of findStartTags(rels, 'Relationship')) {
      const attributes = readAttributes(tag);
      if ((attributes.get('Type') ?? '').endsWith('/officeDocument'))
        return resolveTarget('', attributes.get('Target') ?? '');
    }
  }
  return 'xl/workbook.xml';
}

const sheetNumber = (path: string): number => Number(/(\d+)\.xml$/i.exec(path)?.[1] ?? 0);

/**
 * The worksheets of a workbook part that lists none (some generators leave `<sheets>` out): those its
 * relationships point to, or else the package's `xl/worksheets/*.xml`, in the order of their numbers
 * and named as Excel names new sheets ("Sheet1"), as other readers open them.
 */
function unlistedSheets(
  archive: ZipArchive,
  targets: Array<{ type: string; target: string }>,
): WorkbookSheet[] {
  let paths = targets.filter((t) => t.type.endsWith('/worksheet')).map((t) => t.target);
  if (paths.length === 0) {
    paths = archive
      .allEntries()
      .map((entry) => entry.name.replace(/\\/g, '/'))
      .filter((name) => /^xl\/worksheets\/[^/]+\.xml$/i.test(name));
  }
  return paths
    .sort((a, b) => sheetNumber(a) - sheetNumber(b))
    .map((path, index) => ({ name: `Sheet${index + 1}`, path }));
}

/** Sheet names and locations, the date system, and where the shared strings and styles live. */
export function readWorkbookParts(archive: ZipArchive): WorkbookParts {
  const path = workbookPath(archive);
  const workbookText = archive.readText(path);
  if (workbookText === undefined) {
    if (archive.find('EncryptionInfo')) throw new FastReaderUnsupported('the workbook is encrypted');
    throw new SpreadsheetReadError(
      'The file is a zip archive but not an Excel workbook (it has no workbook part). Check that you chose the right file.',
    );
  }
  const workbook = withoutRootPrefix(workbookText);
  const relsPath = path.replace(/[^/]*$/, (file) => `_rels/${file}.rels`);
  const targets = new Map<string, { type: string; target: string }>();
  for (const tag of findStartTags(withoutRootPrefix(archive.readText(relsPath) ?? ''), 'Relationship')) {
    const attributes = readAttributes(tag);
    targets.set(attributes.get('Id') ?? '', {
      type: attributes.get('Type') ?? '',
      target: resolveTarget(path, attributes.get('Target') ?? ''),
    });
  }
  const sheets: WorkbookSheet[] = [];
  for (const tag of findStartTags(workbook, 'sheet')) {
    const attributes = readAttributes(tag);
    const relationId = [...attributes].find(([key]) => key.endsWith(':id'))?.[1] ?? '';
    const target = targets.get(relationId);
    if (target) sheets.push({ name: attributes.get('name') ?? '', path: target.target });
  }
  if (sheets.length === 0) sheets.push(...unlistedSheets(archive, [...targets.values()]));
  if (sheets.length === 0) {
    throw new SpreadsheetReadError(
      'The workbook has no sheets to read. Open it in Excel, check that it shows your data, save it again, and import the new copy.',
    );
  }
  const workbookPr = readAttributes(findStartTags(workbook, 'workbookPr')[0] ?? '');
  const date1904Flag = workbookPr.get('date1904');
  const related = (suffix: string): string | undefined =>
    [...targets.values()].find((t) => t.type.endsWith(suffix))?.target;
  return {
    sheets,
    date1904: date1904Flag === '1' || date1904Flag === 'true',
    sharedStringsPath: related('/sharedStrings'),
    stylesPath: related('/styles'),
  };
}
