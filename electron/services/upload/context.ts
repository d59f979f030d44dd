import type { IntentState } from '../../../shared/contract/uploadChannels';
import type { EventBus } from '../core/eventBus';
import type { PlatformAdapter } from '../core/platform';
import type { WorkspaceStore } from '../workspaces/workspaceStore';
import type { Environments } from '../environments/environments';
import type { ServiceClient } from '../api/serviceClient';
import type { LedgerStore } from '../ledger/ledgerStore';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerSchema';
import type { BackoffPolicy } from '../api/backoff';
import type { TeamDatabase } from '../team/teamTypes';
import { bulkToPublish } from '../team/teamLedger';
import { environmentKeyOf } from '../team/teamUploads';
import { giveBackEndedCorrections } from './correctionClaims';
import { intentView } from './views';

export interface PollPolicy {
  /** First delay after a change (a few seconds). */
  minMs: number;
  /** Longest delay between polls (about a minute). */
  maxMs: number;
  factor: number;
}

/** What the sender, follower and repair share: the ledger, the service, the clock and the event bus. */
export interface UploadContext {
  ledger: LedgerStore;
  client: ServiceClient;
  events: EventBus;
  workspaces: WorkspaceStore;
  environments: Environments;
  platform: PlatformAdapter;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  retry: BackoffPolicy;
  poll: PollPolicy;
  limits: { maxRows: number; maxBytes: number };
  /**
   * After a restart, how long after this run began an intent left 'uploading' and still PENDING is
   * given before it is abandoned: a file whose last byte left just before the crash may still be landing.
   */
  uploadGraceMs: number;
  /** When this run's upload services started (local clock). */
  startedAt: number;
  /**
   * Checks the rows that replace declined donations before a new upload is recorded; throws a
   * DeskFailure naming the rows that may not be sent (declined donation unknown, already replaced,
   * dismissed, or already in another upload). Absent: such rows are refused.
   */
  checkReplacements?: CheckReplacements;
  /**
   * Team mode: the shared database in force now, or null alone. Asked at each use, so a database
   * set in Settings while the app runs takes effect at the next upload.
   */
  team?: () => TeamDatabase | null;
  /** This computer's name, as the team's uploads record it. */
  computer?: string;
}

export type CheckReplacements = (
  rows: ReadonlyArray<{ rowKey: number; rowNumber: number | null; donationId: string }>,
  /** The upload that will carry them (team mode claims the corrections for it). */
  uploadId?: string,
) => Promise<void>;

/**
 * Writes a changed intent durably, adds a timeline entry when its state moved, and tells the
 * renderer. Every state change goes through here, so the ledger is always ahead of what was shown.
 */
export async function saveIntent(
  ctx: UploadContext,
  intent: LedgerIntent,
  change: Partial<Omit<LedgerIntent, 'attemptId' | 'groupId' | 'part' | 'timeline'>> & { note?: string },
): Promise<LedgerIntent> {
  const at = new Date(ctx.now()).toISOString();
  const { note, ...fields } = change;
  const next: LedgerIntent = { ...intent, ...fields, updatedAt: at };
  const moved: IntentState | undefined =
    fields.state !== undefined && fields.state !== intent.state ? fields.state : undefined;
  if (moved) next.timeline = [...intent.timeline, { state: moved, at, ...(note ? { note } : {}) }];
  else if (note) next.timeline = [...intent.timeline, { state: next.state, at, note }];
  await ctx.ledger.putIntent(next);
  const group = ctx.ledger.group(next.groupId);
  if (group) ctx.events.emit('intent.updated', intentView(group, next));
  if (group && next.state === 'ERROR' && next.donationRowKeys && !intent.donationRowKeys) {
    giveBackRefusedRows(ctx, group, next);
    // The corrections its refused rows claimed too (a resend claims them again); the next resume
    // retries what the team database did not hear now.
    void giveBackEndedCorrections(ctx, new Set([group.id])).catch(() => undefined);
  }
  const known =
    next.serviceId !== intent.serviceId ||
    moved !== undefined ||
    next.donationRowKeys !== intent.donationRowKeys;
  if (group && known) void publishBulk(ctx, group, next);
  return next;
}

/**
 * Team mode: the shared ledger hears of each bulk of a sent upload as it moves, so colleagues'
 * Reconcile lists its donations. Best effort: Reconcile on this computer publishes again whatever
 * is missing at its next refresh (with the totals of a part that ended in ERROR part-way, which
 * need the kept file).
 */
async function publishBulk(ctx: UploadContext, group: LedgerGroup, intent: LedgerIntent): Promise<void> {
  const team = ctx.team?.() ?? null;
  if (!team || group.approval?.state !== 'sent') return;
  try {
    const service = await ctx.environments.describe();
    if (service.emulated || service.id !== group.environment) return;
    const bulk = bulkToPublish(group, intent, environmentKeyOf(service), team.server);
    if (bulk) await team.publishBulk(bulk);
  } catch {
    // The server away, or the environment changed: the next refresh publishes it.
  }
}

/**
 * Team mode: once the service has said which rows of a failed bulk got a donation, the others are
 * not out, so their claims in the shared guard are given back (else a colleague, or a fresh upload
 * of the fixed rows, would be told they were already sent). Best effort: a claim kept errs towards
 * asking, never towards sending twice.
 */
function giveBackRefusedRows(ctx: UploadContext, group: LedgerGroup, intent: LedgerIntent): void {
  const team = ctx.team?.() ?? null;
  const approval = group.approval;
  if (!team || !approval || approval.state !== 'sent' || team.server !== approval.server) return;
  const part = group.parts[intent.part];
  if (!part) return;
  const got = new Set(intent.donationRowKeys ?? []);
  const refused = part.fingerprints.filter((_, i) => !got.has(part.rowKeys[i] as number));
  if (refused.length === 0) return;
  void team.releaseRows(group.id, refused).catch(() => undefined);
}
