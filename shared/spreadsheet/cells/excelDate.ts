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
 * or `HH:MM:SS` for a time-only format (the days left out, as Excel shows it). Serials are rounded to the second, as Excel displays them.
 * The 1900 system keeps Lotus's phantom 1900-02-29 (serial 60) so earlier dates stay right.
 */
export function excelSerialToIso(serial: number, date1904: boolean, timeOnly = false): string {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2958466) return formatNumber(serial);
  const totalSeconds = Math.round(serial * SECONDS_PER_DAY);
  const wholeDays = Math.floor(totalSeconds / SECONDS_PER_DAY);
  const seconds = totalSeconds - wholeDays * SECONDS_PER_DAY;
  // A time-only format shows the time of day whatever the days: 12345 in h:mm is "0:00" in Excel.
  if (timeOnly) return timeOfDay(seconds);
  let date: string;
  if (date1904) date = civilDate(wholeDays - EPOCH_1904_TO_UNIX);
  else if (wholeDays === 60) date = '1900-02-29';
  else date = civilDate(wholeDays - (wholeDays < 60 ? EPOCH_1900_TO_UNIX - 1 : EPOCH_1900_TO_UNIX));
  return seconds === 0 ? date : `${date}T${timeOfDay(seconds)}`;
}

/**
 * An Excel serial shown in an elapsed-time format (`[h]:mm:ss`) as a duration, `HH:MM:SS` with the
 * hours counted past 24 ("255:10:10"), rounded to the second like the dates.
 */
export function excelSerialToDuration(serial: number): string {
  if (!Number.isFinite(serial)) return formatNumber(serial);
  const totalSeconds = Math.round(Math.abs(serial) * SECONDS_PER_DAY);
  const hours = Math.floor(totalSeconds / 3600);
  const text = `${pad2(hours)}:${pad2(Math.floor((totalSeconds % 3600) / 60))}:${pad2(totalSeconds % 60)}`;
  return serial < 0 && totalSeconds > 0 ? `-${text}` : text;
}

const ISO_DURATION = /^(-)?P(?:(\d+)D)?T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d*)?)S)?$/;

/**
 * An ISO 8601 duration as Strict Open XML writes a time value in a date cell (`PT24H0M0.000S`), as
 * the duration text elapsed-time formats give ("24:00:00"); undefined for anything else.
 */
export function isoDurationText(value: string): string | undefined {
  const days = isoDurationDays(value);
  return days === undefined ? undefined : excelSerialToDuration(days);
}

/** An ISO 8601 duration (`PT24H0M0.000S`) in days, as Excel holds a time value; undefined for anything else. */
export function isoDurationDays(value: string): number | undefined {
  const match = ISO_DURATION.exec(value);
  if (!match || value.endsWith('T')) return undefined;
  const [, minus, days = '0', hours = '0', minutes = '0', seconds = '0'] = match;
  const total = Number(days) * 86400 + Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
  return (minus ? -total : total) / SECONDS_PER_DAY;
}

const ISO_DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?)?/;

/**
 * An ISO 8601 date-time as written in a date cell (`t="d"`, or a Date from SheetJS) as the same text
 * numeric dates give: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` rounded to the second. A zone suffix is
 * left out (the wall-clock time is what the sheet shows); a duration (`PT24H0M0.000S`) reads as
 * "24:00:00"; text in another form is kept as it is.
 */
export function isoDateTimeText(value: string): string {
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return isoDurationText(value) ?? value;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = ''] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second) + Math.round(Number(`0${fraction}`)), 0);
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}
