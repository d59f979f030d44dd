/**
 * Reads the yes/no a person types for "receipt wanted": yes/no, y/n, true/false, 1/0, in any case,
 * and booleans or 1/0 numbers from the spreadsheet. Undefined when it is none of these.
 */
export function parseYesNo(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  switch (value.trim().toLowerCase()) {
    case 'yes':
    case 'y':
    case 'true':
    case '1':
      return true;
    case 'no':
    case 'n':
    case 'false':
    case '0':
      return false;
    default:
      return undefined;
  }
}
