import type { ApprovalReview, ApprovalSummary, ChannelResponse, Services } from '../../../shared/contract';
import { formatMinor } from '../../../shared/amounts';
import { count } from '../../../shared/i18n';
import { DeskFailure } from '../../../shared/result';
import type { EventBus } from '../core/eventBus';
import type { PlatformAdapter } from '../core/platform';
import type { SettingsService } from '../settings/settingsService';
import type { FileReview } from '../../../shared/contract';
import { blockedDetails, isTamperSign, readUploadFile, whyFileBlocks } from './fileReview/readUploadFile';
import type { TeamDatabase, TeamUpload, TeamUploadState, TeamWho } from './teamTypes';

/** What the channels need of the team connection (teamConnection.ts). */
export interface TeamConnectionLike {
  current(): TeamDatabase | null;
  status(): Promise<ChannelResponse<'team.status'>>;
  test(url?: string): Promise<ChannelResponse<'team.test'>>;
}

/**
 * A team connection from a plain source of the database in force (tests and hosts that bring their
 * own): its status is asked of the database itself; testing another address needs the app's own.
 */
export function teamConnectionOf(source: { current(): TeamDatabase | null }): TeamConnectionLike {
  return {
    current: () => source.current(),
    status: async () => {
      const db = source.current();
      if (!db) return { mode: 'alone' };
      // A database brought by the host: its connections cannot be asked about encryption from here.
      const base = {
        mode: 'team' as const,
        server: db.server,
        source: 'environment' as const,
        local: /^(localhost|127\.[\d.]+|\[::1\]|\/.*):/.test(db.server),
        encryption: null,
      };
      try {
        const who = await db.who();
        const rule = await db.rule().catch(() => null);
        return { ...base, reachable: true, login: who.login, roles: who.roles, problem: null, rule };
      } catch (e) {
        const problem = e instanceof DeskFailure ? e.message : 'The team database could not be used.';
        return { ...base, reachable: false, login: null, roles: [], problem, rule: null };
      }
    },
    test: async () => ({
      ok: false,
      server: '',
      login: null,
      roles: [],
      message: 'Testing an address needs the app’s own team connection.',
    }),
  };
}

export interface TeamServicesOptions {
  connection: TeamConnectionLike;
  settings: SettingsService;
  events: EventBus;
  platform: Pick<PlatformAdapter, 'mode' | 'notify'>;
  /** How often the waiting uploads are read for the badge and the approvers' notification; 0: never. */
  pollMs: number;
  /** The approver sends: sends an upload just approved from this computer (the upload services). */
  sendApproved?: (uploadId: string) => Promise<{ upload: { state: string }; problems: string[] }>;
  /**
   * The file read on this computer differs from its declaration (or is not the file declared):
   * written to the audit trail (once per upload and run of the app, and at each refused approval).
   */
  recordBlocked?: (uploadId: string, details: Record<string, unknown>) => void;
}

type TeamHandlers = Pick<
  Services,
  'team.status' | 'team.test' | 'approvals.list' | 'approvals.review' | 'approvals.decide'
>;

export const ALONE_MESSAGE =
  'Approvals need a team database: this computer works alone. Set one up in Settings → Team database.';
export const NOT_APPROVER = 'Only a person with the approver role may approve.';
export const OWN_UPLOAD = 'You prepared this upload; another person must approve it.';

const stateWords: Record<TeamUploadState, string> = {
  waiting: 'waiting for approval',
  approved: 'approved',
  rejected: 'rejected',
  void: 'void (the workspace was changed after it was submitted)',
  sent: 'approved and sent',
};

export function approvalSummary(upload: TeamUpload): ApprovalSummary {
  return {
    uploadId: upload.id,
    workspaceName: upload.workspaceName,
    environment: upload.environment,
    preparer: upload.preparer,
    computer: upload.computer,
    createdAt: upload.createdAt,
    state: upload.state,
    rows: upload.rows,
    totals: upload.totals,
    fileSha256: upload.fileSha256,
    decidedBy: upload.decidedBy,
    decidedAt: upload.decidedAt,
    reason: upload.reason,
    sender: upload.sender,
    sentBy: upload.sentBy,
    sentFrom: upload.sentFrom,
  };
}

/** Waiting first (oldest first: the longest wait comes first), then the rest, newest first. */
export function approvalOrder(a: ApprovalSummary, b: ApprovalSummary): number {
  const aw = a.state === 'waiting' ? 0 : 1;
  const bw = b.state === 'waiting' ? 0 : 1;
  if (aw !== bw) return aw - bw;
  return aw === 0 ? a.createdAt.localeCompare(b.createdAt) : b.createdAt.localeCompare(a.createdAt);
}

/** Whether this person may decide on this upload, and if not, why (the database has the last word). */
export function whyNotDecide(upload: TeamUpload, who: TeamWho): string | null {
  if (upload.state !== 'waiting') {
    const by = upload.decidedBy ? ` by ${upload.decidedBy}` : '';
    return `This upload is ${stateWords[upload.state]}${upload.state === 'approved' || upload.state === 'rejected' ? by : ''}: there is nothing left to decide.`;
  }
  if (!who.roles.includes('desk_approver')) return NOT_APPROVER;
  if (who.login === upload.preparer) return OWN_UPLOAD;
  return null;
}

/** "2026-11" → "2026-10"; "2026-01" → "2025-12". */
export function monthBefore(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, mon - 2, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

const totalsText = (totals: TeamUpload['totals']) =>
  totals.map((t) => formatMinor(t.amount, t.currencyCode)).join(', ');

/**
 * The team.* and approvals.* channels over the team connection, and a poller that keeps the side
 * bar's count of waiting uploads current and tells approvers by desktop notification when a new one
 * waits for them.
 */
export function createTeamServices(options: TeamServicesOptions): {
  handlers: TeamHandlers;
  /** Reads the waiting uploads now (after a decision, or when the team database changed). */
  pollNow(): Promise<void>;
  close(): void;
} {
  const { connection, settings, events, platform } = options;

  const database = (): TeamDatabase => {
    const db = connection.current();
    if (!db) throw new DeskFailure('TEAM_ALONE', ALONE_MESSAGE);
    return db;
  };

  // The poller: which waiting uploads were already seen (null before the first read) and the count shown.
  let seen: Set<string> | null = null;
  let lastCount = -1;
  let polling: Promise<void> | null = null;

  async function readWaiting(): Promise<void> {
    let db: TeamDatabase | null;
    try {
      db = connection.current();
    } catch {
      // An address that is not one: the header and Settings say so.
      return;
    }
    if (!db) {
      seen = null;
      if (lastCount !== 0) events.emit('approvals.changed', { waiting: 0 });
      lastCount = 0;
      return;
    }
    let waiting: TeamUpload[];
    let who: TeamWho;
    try {
      [waiting, who] = await Promise.all([db.uploads({ state: 'waiting' }), db.who()]);
    } catch {
      // Unreachable for now: the header says so; the next round tries again.
      return;
    }
    if (waiting.length !== lastCount) events.emit('approvals.changed', { waiting: waiting.length });
    lastCount = waiting.length;
    const fresh = waiting.filter((u) => !seen?.has(u.id) && u.preparer !== who.login);
    const first = seen === null;
    seen = new Set(waiting.map((u) => u.id));
    if (!who.roles.includes('desk_approver') || fresh.length === 0) return;
    if (fresh.length === 1 && !first) {
      const [upload] = fresh as [TeamUpload];
      platform.notify?.(
        'Upload waiting for your approval',
        `${upload.workspaceName} from ${upload.preparer}: ${totalsText(upload.totals)} in ${count(upload.rows, 'donation')}. Open Approvals to review it.`,
      );
    } else {
      platform.notify?.(
        'Uploads waiting for your approval',
        `${count(fresh.length, 'upload waits', 'uploads wait')} for your approval. Open Approvals to review them.`,
      );
    }
  }

  const pollNow = () => {
    polling ??= readWaiting().finally(() => {
      polling = null;
    });
    return polling;
  };

  const timer =
    options.pollMs > 0 && platform.mode !== 'cli' ? setInterval(() => void pollNow(), options.pollMs) : null;
  timer?.unref?.();
  const unsubscribe = events.subscribe((name) => {
    if (name === 'settings.changed') void pollNow();
  });
  if (timer) void pollNow();

  // Uploads whose blocked approval is in the audit trail already (a page read again adds nothing).
  const noted = new Set<string>();
  /** Reads the file again right before approving: the page may be old, the database may have changed. */
  const fileAllowsApproval = async (db: TeamDatabase, uploadId: string, fileSha256: string) => {
    const [upload, who] = await Promise.all([db.upload(uploadId), db.who()]);
    // What the database refuses anyway (a stale file, one's own upload, no approver role): in its words.
    if (!upload || upload.fileSha256 !== fileSha256 || whyNotDecide(upload, who) !== null) return;
    const file: FileReview = await readUploadFile(db, upload);
    const blocked = whyFileBlocks(file);
    if (blocked === null) return;
    if (isTamperSign(file)) {
      noted.add(uploadId);
      options.recordBlocked?.(uploadId, blockedDetails(upload, file));
    }
    throw new DeskFailure('APPROVAL_BLOCKED', blocked);
  };

  const handlers: TeamHandlers = {
    'team.status': () => connection.status(),
    'team.test': ({ address, password }) =>
      connection.test(address ? settings.teamDatabaseUrlToTest(address, password) : undefined),
    'approvals.list': async ({ state }) => {
      const db = connection.current();
      if (!db) return { approvals: [] };
      const uploads = await db.uploads(state === 'all' ? {} : { state: 'waiting' });
      return { approvals: uploads.map(approvalSummary).sort(approvalOrder) };
    },
    'approvals.review': async ({ uploadId }): Promise<ApprovalReview> => {
      const db = database();
      const upload = await db.upload(uploadId);
      if (!upload) {
        throw new DeskFailure(
          'NOT_FOUND',
          `The team database has no upload ${uploadId}. It may have been removed.`,
        );
      }
      const month = monthBefore(upload.review.month);
      const [who, previous, file] = await Promise.all([
        db.who(),
        db.monthTotals(upload.environment, month),
        readUploadFile(db, upload),
      ]);
      const whyNot = whyNotDecide(upload, who);
      // Only a waiting upload can be approved: a decided one's page shows its file without a block.
      const approvalBlocked = upload.state === 'waiting' ? whyFileBlocks(file) : null;
      if (whyNot === null && isTamperSign(file) && !noted.has(upload.id)) {
        noted.add(upload.id);
        options.recordBlocked?.(upload.id, blockedDetails(upload, file));
      }
      return {
        ...approvalSummary(upload),
        largestRecipients: upload.review.largestRecipients,
        previousMonth: { month, totals: previous },
        alreadyOut: upload.review.alreadyOut,
        warnings: upload.review.warnings,
        file,
        approvalBlocked,
        canDecide: whyNot === null,
        whyNot,
      };
    },
    'approvals.decide': async ({ uploadId, decision, fileSha256, reason }) => {
      const db = database();
      const why = reason?.trim() || null;
      if (decision === 'reject' && !why) {
        throw new DeskFailure(
          'INVALID_INPUT',
          'Give a reason to reject the upload: the preparer will read it.',
        );
      }
      if (decision === 'approve') await fileAllowsApproval(db, uploadId, fileSha256);
      const decided = await db.decide(uploadId, decision, fileSha256, why);
      void pollNow();
      if (decided.state !== 'approved' || decided.sender !== 'approver' || !options.sendApproved) {
        return { ...approvalSummary(decided), sending: null };
      }
      // "Approve and send": the decision stands whatever sending says; a problem is retried by resume.
      let sending: { state: string; problems: string[] };
      try {
        const sent = await options.sendApproved(uploadId);
        sending = { state: sent.upload.state, problems: sent.problems };
      } catch (e) {
        sending = {
          state: 'sending',
          problems: [
            `Approved, but not sent yet: ${e instanceof Error ? e.message : String(e)} It is tried again when the app resumes its uploads.`,
          ],
        };
      }
      const after = (await db.upload(uploadId).catch(() => null)) ?? decided;
      return { ...approvalSummary(after), sending };
    },
  };

  return {
    handlers,
    pollNow,
    close: () => {
      if (timer) clearInterval(timer);
      unsubscribe();
    },
  };
}
