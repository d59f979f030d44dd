import type { ReadLimits } from '../limits';
import { ExpandsTooFarError } from '../errors';
import { ZipArchive } from '../xlsx/zipArchive';
import { storedZip } from './storedZip';

/** A self-closing row, `<table:table-row table:number-rows-repeated="6"/>`: SheetJS drops it. */
const SELF_CLOSING_ROW = /<table:table-row(\s[^>]*?)?\/>/g;
/** A cell's value type; SheetJS refuses the whole workbook over one it does not know. */
const VALUE_TYPE = /\soffice:value-type="([^"]*)"/g;
const KNOWN_VALUE_TYPES = new Set([
  'boolean',
  'currency',
  'date',
  'float',
  'percentage',
  'string',
  'time',
  'text',
]);
/** A cell's start tag with the one paragraph it shows: `<table:table-cell …><text:p>TRUE</text:p>`. */
const SHOWN_CELL = /<table:table-cell\b([^>]*)><text:p>([^<]{1,12})<\/text:p>/g;
/**
 * The words LibreOffice shows for a logical result (English, German, French, Spanish, Italian,
 * Dutch), as [word for true, word for false].
 */
const LOGICAL_WORDS = [
  ['TRUE', 'FALSE'],
  ['WAHR', 'FALSCH'],
  ['VRAI', 'FAUX'],
  ['VERDADERO', 'FALSO'],
  ['VERO', 'FALSO'],
  ['WAAR', 'ONWAAR'],
] as const;

/**
 * A formula's logical result, which LibreOffice stores as the number 1 or 0 (`of:=TRUE()`,
 * `of:=A1>5`) and shows as TRUE or FALSE, written as the boolean cell it is (Excel shows it as
 * TRUE or FALSE too); any other cell is left as it is.
 */
function logicalFormulaAsBoolean(cell: string, attributes: string, shown: string): string {
  if (!attributes.includes('table:formula=') || !attributes.includes('office:value-type="float"'))
    return cell;
  const value = /\soffice:value="([01])"/.exec(attributes)?.[1];
  const word = shown.trim().toUpperCase();
  const truth = value === '1';
  if (value === undefined || !LOGICAL_WORDS.some((pair) => pair[truth ? 0 : 1] === word)) return cell;
  const asBoolean = attributes
    .replace('office:value-type="float"', 'office:value-type="boolean"')
    .replace(/\soffice:value="[01]"/, ` office:boolean-value="${truth}"`);
  return `<table:table-cell${asBoolean}><text:p>${shown}</text:p>`;
}

const EMPTY_STYLES =
  '<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"/>';

/**
 * An OpenDocument spreadsheet made readable for SheetJS the way LibreOffice reads it: a self-closing
 * empty row (which SheetJS skips, moving every row below up) is written as an empty row with an end
 * tag, a cell of a value type ODF does not define (SheetJS refuses the whole file over it) is read
 * as the text it shows, a formula's logical result stored as 1 or 0 is read as TRUE or FALSE, and a missing styles.xml (optional in ODF, required by SheetJS) is added empty. The file is
 * repacked without compression only when something changed; otherwise the bytes are returned as
 * they are. A zip this cannot read is left for SheetJS to judge.
 */
export function repairOds(bytes: Uint8Array, limits: Readonly<ReadLimits>): Uint8Array {
  let archive: ZipArchive;
  try {
    archive = new ZipArchive(bytes, limits);
  } catch (error) {
    if (error instanceof ExpandsTooFarError) throw error;
    return bytes;
  }
  const content = archive.find('content.xml');
  if (!content) return bytes;
  const text = new TextDecoder('utf-8').decode(archive.read(content));
  const repaired = text
    .replace(SELF_CLOSING_ROW, '<table:table-row$1></table:table-row>')
    .replace(VALUE_TYPE, (attribute, type: string) => (KNOWN_VALUE_TYPES.has(type) ? attribute : ''))
    .replace(SHOWN_CELL, logicalFormulaAsBoolean);
  const hasStyles = archive.find('styles.xml') !== undefined;
  if (repaired === text && hasStyles) return bytes;
  const encoder = new TextEncoder();
  const files = archive.allEntries().map((entry) => ({
    name: entry.name,
    data: entry === content ? encoder.encode(repaired) : archive.read(entry),
  }));
  // ODF wants the mimetype entry first.
  files.sort((a, b) => Number(b.name === 'mimetype') - Number(a.name === 'mimetype'));
  if (!hasStyles) files.push({ name: 'styles.xml', data: encoder.encode(EMPTY_STYLES) });
  return storedZip(files);
}
