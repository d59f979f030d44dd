/*
 * What every part of the upload flow shares: the ledger, the service, the stores, the clock and the
 * policies. The send gate comes on top of these (see context.ts), as it is opened from them.
 */
import type { EventBus } from '../core/eventBus';
import type { PlatformAdapter } from '../core/platform';
import type { WorkspaceStore } from '../workspaces/workspaceStore';
import type { Environments } from '../environments/environments';
import type { ServiceClient } from '../api/serviceClient';
import type { LedgerStore } from '../ledger/ledgerStore';
import type { BackoffPolicy } from '../api/backoff';

export interface PollPolicy {
  /** First delay after a change (a few seconds). */
  minMs: number;
  /** Longest delay between polls (about a minute). */
  maxMs: number;
  factor: number;
  /**
   * How long an upload that waits for an approver's decision waits before the team database is asked
   * again (DONATION_DESK_APPROVALS_POLL_MS, as the app's approvals check); absent: the back-off
   * above. The team's news (LISTEN/NOTIFY) brings a decision sooner.
   */
  decisionMs?: number;
}

/** What the sender, follower and repair share: the ledger, the service, the clock and the event bus. */
export interface UploadBasics {
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
}

export type CheckReplacements = (
  rows: ReadonlyArray<{ rowKey: number; rowNumber: number | null; donationId: string }>,
  /** The upload that will carry them (team mode claims the corrections for it). */
  uploadId?: string,
) => Promise<void>;

/** The service uploads go to now (resolving it starts the Offline sandbox when that is in use). */
export async function serviceInUse(
  ctx: Pick<UploadBasics, 'environments'>,
): Promise<{ id: string; baseUrl: string; emulated: boolean }> {
  const { info } = await ctx.environments.resolve();
  return { id: info.id, baseUrl: info.baseUrl, emulated: info.emulated };
}
