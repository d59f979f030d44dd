import { formatNumber } from './numberText';

const SECONDS_PER_DAY = 86400;
/** Days from 1899-12-30 (the 1900 system's effective epoch after its leap-year bug) to 1970-01-01. */
const EPOCH_1900_TO_UNIX = 25569;
/** The 1904 system counts from 1904-01-01, 1462 days after the 1900 system's epoch. */
const EPOCH_1904_TO_UNIX = EPOCH_1900_TO_UNIX - 1462;

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** Proleptic Gregorian calendar date from days since 1970-01-01 (integer arithmetic, no Date). */
function civilDate(daysSinceUnix: number): string {
  const z = daysSinceUnix + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

function timeOfDay(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${pad2(h)}:${pad2(m)}:${pad2(seconds % 60)}`;
}

/**
 * An Excel serial date as ISO text: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS` when it has a time of day,
 * or `HH:MM:SS` for a time-only format. Serials are rounded to the second, as Excel displays them.
 * The 1900 system keeps Lotus's phantom 1900-02-29 (serial 60) so earlier dates stay right.
 */
export function excelSerialToIso(serial: number, date1904: boolean, timeOnly = false): string {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2958466) return formatNumber(serial);
  const totalSeconds = Math.round(serial * SECONDS_PER_DAY);
  const wholeDays = Math.floor(totalSeconds / SECONDS_PER_DAY);
  const seconds = totalSeconds - wholeDays * SECONDS_PER_DAY;
  if (timeOnly && wholeDays === 0) return timeOfDay(seconds);
  let date: string;
  if (date1904) date = civilDate(wholeDays - EPOCH_1904_TO_UNIX);
  else if (wholeDays === 60) date = '1900-02-29';
  else date = civilDate(wholeDays - (wholeDays < 60 ? EPOCH_1900_TO_UNIX - 1 : EPOCH_1900_TO_UNIX));
  return seconds === 0 ? date : `${date}T${timeOfDay(seconds)}`;
}
