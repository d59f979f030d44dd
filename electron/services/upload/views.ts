import type { IntentView, UploadView } from '../../../shared/contract/uploadChannels';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';

export function intentView(group: LedgerGroup, intent: LedgerIntent): IntentView {
  const part = group.parts[intent.part];
  const rows = part?.rowKeys.length ?? 0;
  return {
    intentId: intent.serviceId ?? intent.attemptId,
    serviceId: intent.serviceId,
    uploadId: group.id,
    workspaceId: group.workspaceId,
    part: intent.part,
    parts: group.parts.length,
    state: intent.state,
    rows,
    totals: part?.totals ?? [],
    fileHash: part?.fileHash ?? '',
    createdAt: intent.createdAt,
    updatedAt: intent.updatedAt,
    counts: intent.counts,
    donations: intent.state === 'PROCESSED' ? rows : (intent.donationRowKeys?.length ?? null),
    error: intent.error,
    timeline: intent.timeline,
    corrects: group.corrects,
    correctedByUpload: intent.correctedByUpload,
  };
}

export function uploadView(group: LedgerGroup, intents: readonly LedgerIntent[]): UploadView {
  const mine = intents.filter((i) => i.groupId === group.id);
  const current = group.parts.map((p) =>
    mine.filter((i) => i.part === p.index && i.state !== 'abandoned').at(-1),
  );
  const totals = new Map<string, { currencyCode: string; count: number; amount: number }>();
  for (const part of group.parts) {
    for (const t of part.totals) {
      const sum = totals.get(t.currencyCode) ?? { currencyCode: t.currencyCode, count: 0, amount: 0 };
      sum.count += t.count;
      sum.amount += t.amount;
      totals.set(t.currencyCode, sum);
    }
  }
  let state: UploadView['state'];
  if (current.some((c) => c?.state === 'ERROR')) state = 'error';
  else if (current.every((c) => c?.state === 'PROCESSED')) state = 'processed';
  else if (group.stopped) state = 'stopped';
  else if (group.approval && (group.approval.state === 'waiting' || group.approval.state === 'submitting'))
    state = 'waiting-approval';
  else if (current.every((c) => c && ['UPLOADED', 'VALIDATED', 'PROCESSING', 'PROCESSED'].includes(c.state)))
    state = 'following';
  else state = 'sending';
  return {
    uploadId: group.id,
    workspaceId: group.workspaceId,
    workspaceName: group.workspaceName,
    environment: group.environment,
    createdAt: group.createdAt,
    rows: group.parts.reduce((n, p) => n + p.rowKeys.length, 0),
    totals: [...totals.values()],
    state,
    stoppedReason: group.stopped?.reason ?? null,
    approval: group.approval
      ? {
          state: group.approval.state,
          fileSha256: group.approval.fileSha256,
          preparer: group.approval.preparer,
          decidedBy: group.approval.decidedBy,
          decidedAt: group.approval.decidedAt,
          reason: group.approval.reason,
          sender: group.approval.sender ?? 'preparer',
          sentElsewhere:
            group.approval.sendsHere === false &&
            (group.approval.state === 'sent' || group.approval.state === 'approved')
              ? {
                  by:
                    group.approval.sentBy ??
                    (group.approval.sender === 'approver' ? group.approval.decidedBy : null),
                  computer: group.approval.sentFrom ?? null,
                }
              : null,
        }
      : null,
    corrects: group.corrects,
    intents: mine.map((i) => intentView(group, i)),
  };
}
