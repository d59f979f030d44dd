import { SpreadsheetReadError } from '../errors';

export const corruptZip = (): SpreadsheetReadError =>
  new SpreadsheetReadError(
    'The workbook file is damaged or incomplete (its zip structure cannot be read). Open it in Excel, save it again, and import the new copy.',
  );
