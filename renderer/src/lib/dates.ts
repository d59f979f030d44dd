/**
 * Every date and time the app shows, in one format from the person's own locale ("Nov 26, 2026,
 * 3:27 PM" in the United States, "26 Nov 2026, 15:27" in Britain). Times are the computer's own,
 * except where the day a thing falls on must be the same on every computer (the audit trail, the
 * month report): those are in UTC and say so.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, options);
    formats.set(key, f);
  }
  return f;
}

const valid = (iso: string): Date | null => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** "Nov 26, 2026, 3:27 PM" (local time); "—" when there is none. */
export function dateTime(iso: string | null | undefined): string {
  const d = iso ? valid(iso) : null;
  return d ? format('dt', { dateStyle: 'medium', timeStyle: 'short' }).format(d) : '—';
}

/** "Nov 26, 2026, 3:27:05 PM" (local time), for steps seconds apart. */
export function dateTimeSeconds(iso: string | null | undefined): string {
  const d = iso ? valid(iso) : null;
  return d ? format('dts', { dateStyle: 'medium', timeStyle: 'medium' }).format(d) : '—';
}

/** "Nov 26, 2026" (the local day). */
export function day(iso: string | null | undefined): string {
  const d = iso ? valid(iso) : null;
  return d ? format('d', { dateStyle: 'medium' }).format(d) : '—';
}

/** "on Nov 26, 2026", for a sentence. */
export function dayWords(iso: string): string {
  return `on ${day(iso)}`;
}

/** "Nov 26, 2026, 3:27 PM UTC": the same on every computer, and said to be UTC. */
export function utcDateTime(iso: string | null | undefined, withSeconds = false): string {
  const d = iso ? valid(iso) : null;
  if (!d) return '—';
  const f = withSeconds
    ? format('utcs', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })
    : format('utc', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return `${f.format(d)} UTC`;
}

/** "3:27:05 PM" (local time of day, with seconds). */
export function timeOfDaySeconds(iso: string | null | undefined): string {
  const d = iso ? valid(iso) : null;
  return d ? format('ts', { timeStyle: 'medium' }).format(d) : '—';
}

/**
 * The times of steps that follow one another (a timeline): each in full, except that a step on the
 * same local day as the one before it shows only its time of day, so a list of steps seconds apart
 * does not repeat the date on every line.
 */
export function stepTimes(isos: readonly string[]): string[] {
  return isos.map((iso, i) =>
    i > 0 && day(iso) === day(isos[i - 1]) && day(iso) !== '—' ? timeOfDaySeconds(iso) : dateTimeSeconds(iso),
  );
}
