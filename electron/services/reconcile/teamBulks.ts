/*
 * Team mode, the reading side of the shared ledger (read through ledgerSharing.ts): the bulks colleagues
 * sent from their computers join this computer's ledger as uploads of their own, so Reconcile lists
 * their donations, totals them per upload against what was sent, and counts them in the month-end
 * report, exactly as for the uploads sent from here. Their rows stay on the computer that sent them:
 * these uploads have no workspace, and their donations no row.
 */
import type { LedgerGroupSummary, LedgerIntent, LedgerPartSummary } from '../ledger/ledgerShapes';
import type { SharedBulk, SharedGroupSummary } from './ledgerSharing';
import type { LedgerBulk, LedgerSummaryView } from './ledgerView';
import type { PartialTotals } from './partialTotals';

/**
 * The local ledger with the team's bulks this computer did not send added as uploads (one per team
 * upload, one part per bulk), and what each colleague's bulk that ended in ERROR part-way took.
 */
export function withTeamBulks(
  local: LedgerSummaryView,
  teamBulks: readonly SharedBulk[],
  environment: { id: string; baseUrl: string },
  server: string,
): { ledger: LedgerSummaryView; partials: Map<string, PartialTotals> } {
  const partials = new Map<string, PartialTotals>();
  const localGroups = new Set(local.groups.map((g) => g.id));
  const foreign = teamBulks.filter((b) => !local.byBulkId.has(b.bulkId) && !localGroups.has(b.uploadId));
  if (foreign.length === 0) return { ledger: local, partials };

  const groups = new Map<string, SharedGroupSummary>();
  const intents: LedgerIntent[] = [];
  for (const b of foreign) {
    let group = groups.get(b.uploadId);
    if (!group) {
      group = {
        id: b.uploadId,
        workspaceId: '',
        workspaceName: b.workspaceName,
        createdAt: b.uploadCreatedAt,
        environment: environment.id,
        baseUrl: environment.baseUrl,
        referenceKey: null,
        parts: [],
        corrects: null,
        replaces: [],
        stopped: null,
        approval: {
          server,
          fileSha256: '',
          needed: false,
          state: 'sent',
          preparer: null,
          decidedBy: null,
          decidedAt: null,
          reason: null,
        },
        sentElsewhere: { by: b.sentBy, computer: b.computer },
      };
      groups.set(b.uploadId, group);
    }
    const part: LedgerPartSummary = {
      index: b.part,
      totals: b.partTotals,
      fileHash: '',
      fileBytes: 0,
      file: '',
    };
    while (group.parts.length < b.part) {
      group.parts.push({ index: group.parts.length, totals: [], fileHash: '', fileBytes: 0, file: '' });
    }
    group.parts[b.part] = part;
    const taken = b.takenTotals?.reduce((n, t) => n + t.count, 0) ?? null;
    intents.push({
      attemptId: `team:${b.bulkId}`,
      serviceId: b.bulkId,
      groupId: b.uploadId,
      part: b.part,
      state: b.state,
      createdAt: b.uploadCreatedAt,
      updatedAt: b.updatedAt,
      expiresAt: null,
      timeline: [],
      counts: {},
      error: null,
      // Which rows got a donation is known on the sender's computer only; how many is enough here
      // (the controls ask whether any did, and take the totals from `partials`).
      donationRowKeys:
        b.state === 'ERROR' && taken !== null ? Array.from({ length: taken }, (_, i) => i) : null,
      correctedByUpload: null,
    });
    if (b.state === 'ERROR' && b.takenTotals && b.takenTotals.length > 0) {
      partials.set(b.bulkId, { totals: b.takenTotals });
    }
  }
  const bulks: Array<LedgerBulk<LedgerGroupSummary>> = [...local.bulks];
  for (const intent of intents) {
    const group = groups.get(intent.groupId) as SharedGroupSummary;
    bulks.push({ bulkId: intent.serviceId as string, group, intent });
  }
  return {
    ledger: {
      groups: [...local.groups, ...groups.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
      intents: [...local.intents, ...intents],
      bulks,
      byBulkId: new Map(bulks.map((b) => [b.bulkId, b])),
    },
    partials,
  };
}
