import { DelimitedParser } from './delimitedParser';

export const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;

/** Enough text for a few dozen records; detection never needs the whole file. */
const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_RECORDS = 30;

interface Candidate {
  delimiter: string;
  consistency: number;
  fields: number;
}

function measure(sample: string, delimiter: string): Candidate {
  const parser = new DelimitedParser(sample, delimiter);
  const counts: number[] = [];
  for (let record = parser.next(); record && counts.length < SAMPLE_RECORDS; record = parser.next()) {
    if (record.length === 1 && (record[0] ?? '').trim() === '') continue;
    counts.push(record.length);
  }
  // The last sampled record may be cut by the sample boundary.
  if (sample.length === SAMPLE_CHARS && counts.length > 1) counts.pop();
  const frequency = new Map<number, number>();
  for (const count of counts) frequency.set(count, (frequency.get(count) ?? 0) + 1);
  let fields = 1;
  let best = 0;
  for (const [count, times] of frequency) {
    if (times > best || (times === best && count > fields)) {
      fields = count;
      best = times;
    }
  }
  return { delimiter, consistency: counts.length === 0 ? 0 : best / counts.length, fields };
}

/**
 * Picks the delimiter whose records agree best on their number of fields (quotes respected, so a
 * comma inside "1,5" does not count). Title rows above the table lower every candidate alike.
 * Ties go to more fields, then to the order of `preferred` (the file extension's usual delimiter).
 */
export function detectDelimiter(text: string, preferred: string = ','): string {
  const sample = text.slice(0, SAMPLE_CHARS);
  const order = [preferred, ...CANDIDATE_DELIMITERS.filter((d) => d !== preferred)];
  let winner: Candidate | undefined;
  for (const delimiter of order) {
    const candidate = measure(sample, delimiter);
    if (candidate.fields < 2) continue;
    if (
      !winner ||
      candidate.consistency > winner.consistency + 1e-9 ||
      (Math.abs(candidate.consistency - winner.consistency) <= 1e-9 && candidate.fields > winner.fields)
    ) {
      winner = candidate;
    }
  }
  return winner?.delimiter ?? preferred;
}
