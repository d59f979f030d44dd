import type { IntentView } from '../../../../shared/contract/uploadChannels';
import { bulkStatusWord, codeWord, count, plural, withCode } from '../../../../shared/i18n';

/** The app's own steps before the service knows the file; the service's statuses in its plain words. */
const localStepWords: Partial<Record<IntentView['state'], string>> = {
  creating: 'Asking for an upload address',
  pending: 'Ready to send the file',
  uploading: 'Sending the file',
  abandoned: 'Never sent',
};

export function intentStateWord(state: IntentView['state']): string {
  return localStepWords[state] ?? bulkStatusWord(state);
}

/** One line of a bulk's timeline as shown. */
export interface TimelineStep {
  /** What happened, in words. */
  label: string;
  /** The service's or the app's code for the state, for a tooltip. */
  code: string;
  at: string;
  /** More about it, shown after the time. */
  note?: string;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A bulk's timeline in words. An entry that keeps the state of the one before is a later event about
 * it (what the error file showed, a correction sent): it is named by what happened, so the timeline
 * does not read "Rejected, Rejected, Rejected".
 */
export function timelineSteps(timeline: IntentView['timeline']): TimelineStep[] {
  return timeline.map((t, i) => {
    const event = i > 0 && timeline[i - 1]?.state === t.state && !!t.note;
    return event && t.note
      ? { label: capitalised(t.note), code: t.state, at: t.at }
      : { label: intentStateWord(t.state), code: t.state, at: t.at, ...(t.note ? { note: t.note } : {}) };
  });
}

/**
 * Why a bulk ended in ERROR, in the app's words and counts (the service's own title and detail,
 * with its code, are kept for a tooltip): what happened, and how many rows still need sending.
 */
export function intentErrorWords(intent: Pick<IntentView, 'error' | 'rows' | 'donations' | 'counts'>): {
  text: string;
  serviceSaid: string;
} | null {
  const error = intent.error;
  if (!error) return null;
  const parts = [`${codeWord(error.code)}.`];
  const made = intent.donations;
  if (made !== null && made > 0) {
    const left = intent.rows - made;
    parts.push(
      `${count(made, 'donation')} ${plural(made, { one: 'was', other: 'were' })} created; ${count(left, 'row')} ${plural(left, { one: 'is', other: 'are' })} still to send.`,
    );
  } else if (intent.counts.invalid) {
    // The service refuses a whole file for one bad row: said so, lest "1 row was refused" read as
    // "the other rows went through".
    const invalid = intent.counts.invalid;
    return {
      text: `The service refused the whole file: ${invalid.toLocaleString()} of its ${count(intent.rows, 'row')} ${plural(invalid, { one: 'has', other: 'have' })} an error, so no donation was created. Fix ${plural(invalid, { one: 'that row', other: 'those rows' })} and send the file again.`,
      serviceSaid: withCode(`${error.title}${error.detail ? `: ${error.detail}` : ''}`, error.code),
    };
  } else if (made === 0) parts.push('No donation was created.');
  return {
    text: parts.join(' '),
    serviceSaid: withCode(`${error.title}${error.detail ? `: ${error.detail}` : ''}`, error.code),
  };
}

/** The statuses a file has once it is at the service. */
const atServiceStates: ReadonlySet<IntentView['state']> = new Set([
  'UPLOADED',
  'VALIDATED',
  'PROCESSING',
  'PROCESSED',
  'ERROR',
]);

/** When the file reached the service (its first status there), or null while it has not. */
export function sentAt(intent: Pick<IntentView, 'timeline'>): string | null {
  return intent.timeline.find((t) => atServiceStates.has(t.state))?.at ?? null;
}

/**
 * A bulk as a person knows it, instead of the service's id: the workspace it came from (and which of
 * its files, when the upload was split), when it was sent and where to.
 */
export function intentNameWords(workspaceName: string, intent: Pick<IntentView, 'part' | 'parts'>): string {
  return intent.parts > 1 ? `${workspaceName}, file ${intent.part + 1} of ${intent.parts}` : workspaceName;
}

export function intentSentWords(
  intent: Pick<IntentView, 'timeline' | 'state' | 'createdAt'>,
  time: (iso: string) => string,
): string {
  const at = sentAt(intent);
  if (at) return `Sent ${time(at)}`;
  const started = `Started ${time(intent.createdAt)}`;
  return intent.state === 'abandoned'
    ? `${started}; the file never reached the service`
    : `${started}; not at the service yet`;
}

/** What the tooltip over a bulk says about the service's id, which the CLI and exports use. */
export function serviceIdWords(serviceId: string | null): string {
  return serviceId
    ? `The service’s id for this file: ${serviceId}`
    : 'The service has not given this file an id yet.';
}

/** The rows the service refused, named as the spreadsheet numbers them: "Row 24 needs fixing." */
export function refusedRowsWords(rows: readonly (number | null)[], shown = 5): string | null {
  const numbers = [...new Set(rows.filter((r): r is number => r !== null))].sort((a, b) => a - b);
  const added = rows.some((r) => r === null);
  if (numbers.length === 0) return added ? 'Rows added in the app need fixing.' : null;
  const named = numbers.slice(0, shown).map(String);
  const more = numbers.length - named.length;
  const list =
    more > 0
      ? `${named.join(', ')} and ${more.toLocaleString()} more`
      : named.length > 1
        ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`
        : named[0];
  const many = numbers.length > 1;
  return `${many ? 'Rows' : 'Row'} ${list} of the spreadsheet ${many ? 'need' : 'needs'} fixing${added ? ', and rows added in the app' : ''}.`;
}

/** The states a file ends in at the service: its outcome. */
const outcomeStates: ReadonlySet<IntentView['state']> = new Set(['PROCESSED', 'ERROR', 'abandoned']);

/**
 * A file's outcome, said once when it comes: "sample-donations (November): the service refused 1 row;
 * it needs repair". Null while the file has no outcome yet.
 */
export function intentOutcomeWords(
  workspaceName: string,
  intent: Pick<IntentView, 'state' | 'rows' | 'counts' | 'donations' | 'error' | 'part' | 'parts'>,
): string | null {
  if (!outcomeStates.has(intent.state)) return null;
  const name = intentNameWords(workspaceName, intent);
  if (intent.state === 'abandoned') return `${name}: the file never reached the service; upload it again.`;
  if (intent.state === 'PROCESSED') {
    const accepted = intent.counts.accepted ?? intent.donations ?? intent.rows;
    return `${name}: processed; the service accepted ${count(accepted, 'row')}.`;
  }
  const refused = intent.counts.invalid;
  if (refused) return `${name}: the service refused ${count(refused, 'row')}; it needs repair.`;
  const why = intent.error ? codeWord(intent.error.code) : 'the service stopped it';
  return `${name}: ${why}; it needs repair.`;
}
