// Test-only: minimal OpenDocument spreadsheets around the given table rows.
import { buildZip } from './zipWriter';

const NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"',
].join(' ');

const MANIFEST =
  '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">' +
  '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>' +
  '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>';

/** A string cell. */
export const odsText = (text: string): string =>
  `<table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell>`;

/** A row of the given cells. */
export const odsRow = (...cells: string[]): string => `<table:table-row>${cells.join('')}</table:table-row>`;

export function buildOds(options: {
  rows: string;
  /** Automatic styles (number and cell styles) in content.xml. */
  styles?: string;
  /** Leave styles.xml out, as some generators do. */
  withoutStylesPart?: boolean;
}): Uint8Array {
  const files: Record<string, string> = {
    mimetype: 'application/vnd.oasis.opendocument.spreadsheet',
    'META-INF/manifest.xml': MANIFEST,
    'content.xml':
      `<?xml version="1.0"?><office:document-content ${NAMESPACES} office:version="1.2">` +
      `<office:automatic-styles>${options.styles ?? ''}</office:automatic-styles><office:body><office:spreadsheet>` +
      `<table:table table:name="Gifts">${options.rows}</table:table></office:spreadsheet></office:body></office:document-content>`,
  };
  if (!options.withoutStylesPart) {
    files['styles.xml'] =
      `<?xml version="1.0"?><office:document-styles ${NAMESPACES} office:version="1.2"></office:document-styles>`;
  }
  return buildZip(files);
}
