/** Excel's error codes (BIFF numbering, which SheetJS also uses) as people see them in a cell. */
const ERROR_TEXT: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA',
};

export function errorCodeText(code: number): string {
  return ERROR_TEXT[code] ?? '#ERROR!';
}
