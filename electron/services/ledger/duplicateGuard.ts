import type { LedgerGroup, LedgerIntent } from './ledgerShapes';

export interface SentRecord {
  /** The service's intent id when known, else the local attempt id, else the upload id. */
  intentId: string;
  sentAt: string;
}

/**
 * The rows of a part that have gone out, or will go out when the app resumes, as far as the ledger
 * knows. A part whose current intent ended in ERROR counts only the rows that did get a donation
 * (none for a rejected file; some after a partial extraction). When that is not known yet, every
 * row counts: the guard errs towards asking.
 */
export function rowsOut(
  group: LedgerGroup,
  partIndex: number,
  intents: readonly LedgerIntent[],
): Set<number> | 'all' {
  const mine = intents.filter(
    (i) => i.groupId === group.id && i.part === partIndex && i.state !== 'abandoned',
  );
  const current = mine.at(-1);
  if (!current) return group.stopped ? new Set() : 'all';
  if (current.state === 'ERROR') return current.donationRowKeys ? new Set(current.donationRowKeys) : 'all';
  return 'all';
}

/** The service in use, as the ledger records where each upload went. */
export interface ServiceInUse {
  id: string;
  baseUrl: string;
  /** The Offline sandbox: its address changes with every launch, so only its id tells it apart. */
  emulated: boolean;
}

/** Whether an upload went to the service in use: another environment's donations are not duplicates here. */
export function sentTo(group: LedgerGroup, service: ServiceInUse): boolean {
  const address = (url: string) => url.replace(/\/+$/, '');
  return (
    group.environment === service.id &&
    (service.emulated || address(group.baseUrl) === address(service.baseUrl))
  );
}

/**
 * Fingerprint → the first intent that sent it, over the whole ledger, or only over the uploads that
 * went to `service` when given (a row tried out on the Sandbox is not a duplicate in Production).
 */
export function sentFingerprints(
  groups: readonly LedgerGroup[],
  intents: readonly LedgerIntent[],
  service?: ServiceInUse,
): Map<string, SentRecord> {
  const sent = new Map<string, SentRecord>();
  for (const group of groups) {
    if (service && !sentTo(group, service)) continue;
    for (const part of group.parts) {
      const out = rowsOut(group, part.index, intents);
      const current = intents
        .filter((i) => i.groupId === group.id && i.part === part.index && i.state !== 'abandoned')
        .at(-1);
      const record: SentRecord = {
        intentId: current?.serviceId ?? current?.attemptId ?? group.id,
        sentAt: current?.createdAt ?? group.createdAt,
      };
      part.fingerprints.forEach((fingerprint, i) => {
        const key = part.rowKeys[i] as number;
        if (out !== 'all' && !out.has(key)) return;
        if (!sent.has(fingerprint)) sent.set(fingerprint, record);
      });
    }
  }
  return sent;
}
