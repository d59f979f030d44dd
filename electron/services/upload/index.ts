import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChannelName, Handler } from '../../../shared/contract';
import type { UploadView, uploadChannels } from '../../../shared/contract/uploadChannels';
import type { Environments } from '../environments/environments';
import type { EventBus } from '../core/eventBus';
import type { PlatformAdapter } from '../core/platform';
import type { WorkspaceStore } from '../workspaces/workspaceStore';
import { ServiceClient, DEFAULT_RETRY, type RetryOptions } from '../api/serviceClient';
import { LedgerStore, readLedgerRecords } from '../ledger/ledgerStore';
import type { CheckReplacements, PollPolicy, UploadBasics } from './basics';
import { localSendGates } from './localSendGate';
import type { SendGates } from './sendGate';
import { UploadEngine } from './uploadEngine';

type UploadChannel = keyof typeof uploadChannels & ChannelName;

export interface UploadServices {
  handlers: { [C in UploadChannel]: Handler<C> };
  /** Every upload in the ledger, newest first; none without opening (and locking) a ledger that does not exist yet. */
  uploadsSoFar(): Promise<UploadView[]>;
  /** Resume sending and following every unfinished upload in the ledger (call once after start). */
  resume(): void;
  /** One pass of resume, awaited: what could be sent now is sent (CLI resume lists after it). */
  resumeNow(): Promise<void>;
  /**
   * Team mode, the approver's computer: sends an upload this login approved when the team's rule
   * says the approver sends (its files come from the team database).
   */
  sendApproved(uploadId: string): Promise<{ uploadId: string; upload: UploadView; problems: string[] }>;
  /** Resolves when every upload in the ledger has reached PROCESSED or ERROR (CLI --wait, tests). */
  waitUntilSettled(options?: { signal?: AbortSignal; pollMs?: number }): Promise<void>;
  /**
   * Team mode: a workspace was edited. Its upload waiting for approval, or approved and not sent,
   * is voided in the team database and stopped here. Best effort: never throws.
   */
  workspaceEdited(workspaceId: string, version: number): Promise<void>;
  close(): Promise<void>;
}

export interface UploadDeps {
  dataDir: string;
  environments: Environments;
  workspaces: WorkspaceStore;
  events: EventBus;
  platform: PlatformAdapter;
  fetchImpl?: typeof fetch;
  now?: () => number;
  /** Split above these (rows per file, bytes of JSON per file). */
  limits?: { maxRows?: number; maxBytes?: number };
  poll?: Partial<PollPolicy>;
  retry?: Partial<RetryOptions>;
  sleep?: (ms: number) => Promise<void>;
  /** See UploadContext.checkReplacements: the reconcile services answer it. */
  checkReplacements?: CheckReplacements;
  /**
   * What an upload passes before it is sent, and what team mode hears of it (default: the local
   * gate, which lets everything go and shares nothing).
   */
  sendGates?: SendGates;
  log?: (message: string) => void;
}

const DEFAULT_POLL: PollPolicy = { minMs: 3_000, maxMs: 60_000, factor: 1.6 };
const DEFAULT_LIMITS = { maxRows: 50_000, maxBytes: 100 * 1024 * 1024 };

function envNumber(env: Record<string, string | undefined> | undefined, name: string): number | undefined {
  const value = Number(env?.[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The upload, follow and repair services. The ledger is opened on first use (it takes a lock, so
 * a host that never uploads never holds it). Hosts may tune polling and splitting through
 * DONATION_DESK_POLL_MIN_MS, DONATION_DESK_POLL_MAX_MS, DONATION_DESK_APPROVALS_POLL_MS (team mode:
 * asking again about a decision, see PollPolicy.decisionMs), DONATION_DESK_MAX_ROWS_PER_FILE,
 * DONATION_DESK_MAX_BYTES_PER_FILE (JSON bytes before gzip) and
 * DONATION_DESK_UPLOAD_GRACE_MS (see UploadContext.uploadGraceMs).
 */
export function createUploadServices(deps: UploadDeps): UploadServices {
  const env = deps.platform.env;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const retry = { ...DEFAULT_RETRY, ...deps.retry };
  const poll: PollPolicy = {
    ...DEFAULT_POLL,
    ...(envNumber(env, 'DONATION_DESK_POLL_MIN_MS')
      ? { minMs: envNumber(env, 'DONATION_DESK_POLL_MIN_MS') as number }
      : {}),
    ...(envNumber(env, 'DONATION_DESK_POLL_MAX_MS')
      ? { maxMs: envNumber(env, 'DONATION_DESK_POLL_MAX_MS') as number }
      : {}),
    ...(envNumber(env, 'DONATION_DESK_APPROVALS_POLL_MS')
      ? { decisionMs: envNumber(env, 'DONATION_DESK_APPROVALS_POLL_MS') as number }
      : {}),
    ...deps.poll,
  };
  const limits = {
    maxRows:
      deps.limits?.maxRows ?? envNumber(env, 'DONATION_DESK_MAX_ROWS_PER_FILE') ?? DEFAULT_LIMITS.maxRows,
    maxBytes:
      deps.limits?.maxBytes ?? envNumber(env, 'DONATION_DESK_MAX_BYTES_PER_FILE') ?? DEFAULT_LIMITS.maxBytes,
  };
  const uploadGraceMs = envNumber(env, 'DONATION_DESK_UPLOAD_GRACE_MS') ?? 30_000;
  const client = new ServiceClient(() => deps.environments.resolve(), {
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
    retry,
    sleep,
  });
  const gates = deps.sendGates ?? localSendGates;
  let engine: Promise<UploadEngine> | null = null;
  let closed = false;
  const ready = (): Promise<UploadEngine> => {
    engine ??= LedgerStore.open(join(deps.dataDir, 'uploads')).then((ledger) => {
      const basics: UploadBasics = {
        ledger,
        client,
        events: deps.events,
        workspaces: deps.workspaces,
        environments: deps.environments,
        platform: deps.platform,
        now: deps.now ?? Date.now,
        sleep,
        retry,
        poll,
        limits,
        uploadGraceMs,
        startedAt: (deps.now ?? Date.now)(),
        ...(deps.checkReplacements ? { checkReplacements: deps.checkReplacements } : {}),
      };
      return new UploadEngine(basics, gates);
    });
    engine.catch(() => {
      engine = null;
    });
    return engine;
  };

  /** Whether a resume has anything to do: a ledger, or an upload approved for this login to send. */
  const anythingToResume = async (): Promise<boolean> => {
    if (existsSync(join(deps.dataDir, 'uploads'))) return true;
    try {
      return await gates.anythingToTakeOver();
    } catch {
      return false;
    }
  };

  return {
    handlers: {
      'upload.preview': async (input) => (await ready()).preview(input),
      'upload.start': async (input) => (await ready()).start(input),
      'upload.list': async () => (await ready()).list(),
      'upload.get': async ({ intentId }) => (await ready()).get(intentId),
      'upload.refresh': async ({ intentId }) => (await ready()).refresh(intentId),
      'upload.errors': async ({ intentId }) => (await ready()).errors(intentId),
      'upload.resend': async (input) => (await ready()).resend(input),
    },
    async uploadsSoFar() {
      if (!existsSync(join(deps.dataDir, 'uploads'))) return [];
      return (await ready()).list();
    },
    resume() {
      // No ledger yet means nothing to resume (unless an approved upload waits for this login to send
      // it): do not create one (nor take its lock) just to look.
      // Errors (another process holds the ledger, the service is down) are retried or reported on use.
      void anythingToResume()
        .then((any) => (any ? ready().then((e) => e.resume()) : undefined))
        .catch(() => undefined);
    },
    async resumeNow() {
      if (!(await anythingToResume())) return;
      await (await ready()).resume();
    },
    async sendApproved(uploadId) {
      return (await ready()).sendApproved(uploadId);
    },
    async waitUntilSettled(options = {}) {
      const e = await ready();
      await e.resume();
      while (!e.settled()) {
        if (options.signal?.aborted || closed) return;
        await sleep(options.pollMs ?? 250);
      }
    },
    async workspaceEdited(workspaceId, version) {
      if (!gates.inForce() || !existsSync(join(deps.dataDir, 'uploads'))) return;
      const log = deps.log ?? ((m: string) => console.error(m));
      try {
        const e = await ready();
        await e.workspaceEdited(workspaceId, version);
        return;
      } catch {
        // The ledger is held by another process (a command running beside the app): void in the team
        // database only; the process that holds the ledger learns it at its next try to send.
      }
      try {
        const { groups } = await readLedgerRecords(join(deps.dataDir, 'uploads'));
        const open = groups.filter(
          (g) =>
            g.workspaceId === workspaceId &&
            !g.stopped &&
            g.approval &&
            ['submitting', 'waiting', 'approved'].includes(g.approval.state),
        );
        await gates.voidApprovals(
          open.map((g) => g.id),
          `the workspace was edited after it was submitted for approval (version ${version}, ${new Date().toISOString()})`,
        );
      } catch (e) {
        log(
          `Team database: an approval of workspace ${workspaceId} could not be voided after an edit: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    },
    async close() {
      closed = true;
      const current = engine;
      if (!current) return;
      const e = await current.catch(() => null);
      if (!e) return;
      await e.close();
      await e.ledger().close();
    },
  };
}
