import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../storage/atomicFile';
import type { ChannelInput, ChannelName, ChannelResponse, Handler } from '../../../shared/contract';
import type { reconcileChannels } from '../../../shared/contract/reconcileChannels';
import { REPLACES_KEY } from '../../../shared/mapping';
import { count } from '../../../shared/i18n';
import type { DonationResource } from '../../../shared/bulk-file/serviceSchemas';
import type { Workspace, WorkspaceRow, WorkspaceSource } from '../../../shared/contract';
import type { CheckReplacements } from '../upload/context';
import { DeskFailure } from '../../../shared/result';
import { ServiceClient, type RetryOptions } from '../api/serviceClient';
import type { Environments } from '../environments/environments';
import type { EventBus } from '../core/eventBus';
import {
  DonationStore,
  markedByThisApp,
  type DonationFilter,
  type DonationQuery,
  type StoredDonation,
} from './donationStore';
import { listDonations } from './donationLister';
import { correctDeclined } from './corrections';
import { createSingleDonation } from './singleDonation';
import { correctFromWorkspace } from './workspaceCorrections';
import { checkReplacementRows, correctionSheet, replacementsInUploads, type InUpload } from './replacements';
import { monthReport } from './monthReport';
import { partialTotals, type PartialTotals } from './partialTotals';
import { CAUSE_CODES, causeOf, causesThatCannotReceive } from './causeStanding';
import type { CannotReceive } from '../../../shared/contract/searchChannels';
import { readLedgerSummaryView, readLedgerView, type LedgerSummaryView, type LedgerView } from './ledgerView';
import { RowMatcher } from './rowMatcher';
import { donationView, uploadControls } from './views';
import type { TeamBulk, TeamDatabase, TeamDismissal } from '../team/teamTypes';
import { bulkToPublish, publishedAlready } from '../team/teamLedger';
import { withTeamBulks } from './teamBulks';
import { environmentKeyOf } from '../team/teamUploads';
import {
  claimForUpload,
  correctionElsewhere,
  elsewhereMessage,
  teamCorrectionGuard,
  type CorrectionElsewhere,
} from './teamCorrections';

type ReconcileChannel = keyof typeof reconcileChannels & ChannelName;

export interface ReconcileServices {
  handlers: { [C in ReconcileChannel]: Handler<C> };
  /** The upload's check of rows that replace declined donations (see UploadContext.checkReplacements). */
  checkReplacements: CheckReplacements;
  /** Causes this app has seen declined because they cannot take money (for the cause suggestions). */
  causesThatCannotReceive(): Promise<Map<string, CannotReceive>>;
  /** Stops the background refresh and waits for one in flight. */
  close(): Promise<void>;
}

export interface ReconcileDeps {
  dataDir: string;
  environments: Environments;
  events: EventBus;
  fetchImpl?: typeof fetch;
  retry?: Partial<RetryOptions>;
  now?: () => number;
  /** Refresh open donations in the background this often; 0 or absent: only on demand. */
  backgroundMs?: number;
  /** Makes a Prepare workspace (corrections of declined donations are fixed and sent from one). */
  createWorkspace?: (input: {
    name: string;
    source: WorkspaceSource;
    headers: string[];
    rows: WorkspaceRow[];
    mapping: Record<string, unknown> | null;
  }) => Promise<{ id: string }>;
  /** Reads a Prepare workspace (its rows are sent one by one by donations.correctFromWorkspace). */
  readWorkspace?: (id: string) => Promise<Workspace>;
  /**
   * Team mode: the shared database in force now, or null alone. Corrections are claimed on it, and
   * declined donations show a colleague's correction.
   */
  team?: () => TeamDatabase | null;
}

/** The emulator's cap; a larger request would only be cut to it, and fewer round trips is kinder. */
const DEFAULT_PAGE_SIZE = 250;
const SAVE_EVERY_MS = 2_000;
/**
 * Also saved once this many changes are held: written while the pages just read are still in
 * SQLite's cache and before the held records outlive the young generation (a refresh of 100,000
 * with every state changed: 2.3 s instead of 2.6 s, saving every 2 s only).
 */
const SAVE_EVERY_HELD = 10_000;

type ListResult = ChannelResponse<'donations.list'>;
/** How long a page waits for the team database's corrections before showing none. */
const ELSEWHERE_WAIT_MS = 2_000;
/** How long the team's list of bulks is used before it is read again (a refresh always reads it). */
const TEAM_BULKS_FRESH_MS = 30_000;

/** The team's bulks as last read from `server` for `key`, kept in the data folder; null if none or unreadable. */
async function readKeptTeamBulks(file: string, key: string, server: string): Promise<TeamBulk[] | null> {
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as {
      key?: unknown;
      server?: unknown;
      bulks?: unknown;
    };
    return kept.key === key && kept.server === server && Array.isArray(kept.bulks)
      ? (kept.bulks as TeamBulk[])
      : null;
  } catch {
    return null;
  }
}

/** The answer, or a rejection once `ms` have passed without one. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('late')), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A donation this app made: in one of its bulks, or marked as its correction or single donation. */
function madeHere(resource: DonationResource, ourBulks: ReadonlySet<string>): boolean {
  const bulkId = resource.attributes.bulkId;
  return (!!bulkId && ourBulks.has(bulkId)) || markedByThisApp(resource);
}

/** The declined donation a listed one says it replaces, when this app has it as declined. */
function replacedBy(store: DonationStore, id: string | undefined): string | null {
  if (!id) return null;
  const declined = store.get(id);
  return declined?.resource.attributes.state.processingStatus === 'DECLINED' ? id : null;
}

function refuseIfInUpload(inUploads: Map<string, InUpload>, donationId: string): void {
  const upload = inUploads.get(donationId);
  if (upload) {
    throw new DeskFailure(
      'IN_UPLOAD',
      `Donation ${donationId} is being replaced by the upload of “${upload.workspaceName}” (${upload.createdAt.slice(0, 10)}); follow that upload in Uploads.`,
    );
  }
}

/**
 * Reconciliation: the donations the uploads created, read page by page from the service, tied back
 * to their workspace rows, kept with the states seen over time, and totalled per status and per upload.
 */
export function createReconcileServices(deps: ReconcileDeps): ReconcileServices {
  const now = deps.now ?? Date.now;
  const client = new ServiceClient(() => deps.environments.resolve(), {
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
  });
  const ledgerDir = join(deps.dataDir, 'uploads');
  const stores = new Map<string, Promise<DonationStore>>();
  const running = new Map<string, AbortController>();

  const storeFor = (environment: string): Promise<DonationStore> => {
    let store = stores.get(environment);
    if (!store) {
      store = DonationStore.open(join(deps.dataDir, 'reconcile', `donations-${environment}.json`));
      store.catch(() => stores.delete(environment));
      stores.set(environment, store);
    }
    return store;
  };

  /** Reads the given bulks (or, with null, every donation of the account) into the store, as one job. */
  const fetchInto = async (
    store: DonationStore,
    ledger: LedgerView,
    bulkIds: Array<string | undefined>,
    options: {
      status?: string;
      jobId?: string;
      pageSize?: number;
      /**
       * Keep only donations this app made (of these bulks, or marked as a correction or a single
       * donation of its own), and those already kept: for reading every donation of the account.
       */
      onlyOurs?: ReadonlySet<string>;
    },
  ): Promise<number> => {
    const jobId = options.jobId ?? randomUUID();
    if (running.has(jobId))
      throw new DeskFailure('BUSY', `A listing with job id ${jobId} is already running.`);
    const controller = new AbortController();
    running.set(jobId, controller);
    const matcher = new RowMatcher(ledger);
    // The rows already tied to a donation of the bulks read (of every bulk listed, when reading all).
    const reading = bulkIds.filter((b): b is string => !!b);
    const claimFrom = reading.length === bulkIds.length ? reading : store.bulkStates().listed;
    for (const { bulkId, rowKey } of store.linkedRows(claimFrom)) matcher.claim(bulkId, rowKey);
    deps.events.emit('job.status', { jobId, kind: 'donations', status: 'running' });
    let pages = 0;
    let read = 0;
    let lastSave = now();
    const seen: Array<[string, string]> = [];
    try {
      for (const [index, bulkId] of bulkIds.entries()) {
        await listDonations(
          client,
          {
            ...(bulkId ? { bulkId } : {}),
            ...(options.status ? { status: options.status } : {}),
            pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
          },
          {
            signal: controller.signal,
            // Each page is stored as it comes: nothing of the listing is kept beyond it.
            keep: false,
            onPage: async (page) => {
              const at = new Date(now()).toISOString();
              // What is stored of the page's donations, in one read rather than one per donation.
              store.prefetch(page.map((resource) => resource.id));
              for (const resource of page) {
                // Known or not, and its row, without reading its whole record (the hot path of a refresh).
                const known = store.known(resource.id);
                if (options.onlyOurs && !known && !madeHere(resource, options.onlyOurs)) continue;
                const replaces = replacedBy(store, resource.attributes.metadata?.[REPLACES_KEY]);
                // A correction whose answer was lost, found now: it was sent when the attempt was written down.
                const pending = replaces ? store.get(replaces)?.resolution : null;
                const sentAt = !known && pending?.kind === 'replacing' ? pending.at : undefined;
                store.record(resource, known?.row ?? matcher.match(resource), at, {
                  ...(replaces ? { replaces } : {}),
                  ...(sentAt ? { sentAt } : {}),
                });
                // A correction sent in a bulk file closes its declined donation once it is seen.
                if (replaces && store.get(replaces)?.resolution?.kind !== 'replaced') {
                  store.resolve(replaces, { kind: 'replaced', at, replacementId: resource.id });
                  seen.push([replaces, resource.id]);
                }
              }
              read += page.length;
              pages++;
              // Saved every few seconds or every 10,000 changes rather than per page (each save is a
              // commit that waits for the disk); the end of the job, cancelled or failed included,
              // always saves.
              if (now() - lastSave >= SAVE_EVERY_MS || store.pending >= SAVE_EVERY_HELD) {
                await store.save();
                lastSave = now();
              }
              deps.events.emit('job.progress', {
                jobId,
                kind: 'donations',
                stage: bulkIds.length > 1 ? `bulk ${index + 1} of ${bulkIds.length}` : 'listing',
                done: read,
                total: null,
                message: `${count(read, 'donation')} read, page ${pages}`,
              });
            },
          },
        );
      }
      store.markRefreshed(new Date(now()).toISOString());
      await store.save();
      store.settle();
      await finishSeen(seen);
      await adoptColleaguesReplacements(store);
      deps.events.emit('job.status', { jobId, kind: 'donations', status: 'succeeded' });
      return pages;
    } catch (e) {
      await store.save();
      const cancelled = e instanceof DeskFailure && e.code === 'CANCELLED';
      deps.events.emit('job.status', {
        jobId,
        kind: 'donations',
        status: cancelled ? 'cancelled' : 'failed',
        message: e instanceof Error ? e.message : String(e),
      });
      throw e;
    } finally {
      running.delete(jobId);
    }
  };

  // The ledger's summaries (no rows' keys or fingerprints): what every page, total and report needs;
  // only a read from the service, which ties donations to rows, reads the whole records.
  // In team mode the ledger includes the uploads colleagues sent from their computers (teamBulks.ts).
  const context = async (): Promise<{
    environment: string;
    store: DonationStore;
    ledger: LedgerSummaryView;
    /** This computer's own uploads only (their files and rows are here). */
    local: LedgerSummaryView;
    /** What colleagues' bulks that ended in ERROR part-way took, as their computers recorded it. */
    teamPartials: Map<string, PartialTotals>;
  }> => {
    const service = await deps.environments.describe();
    const environment = service.id;
    const [store, local, shared] = await Promise.all([
      storeFor(environment),
      readLedgerSummaryView(ledgerDir),
      teamBulksNow(),
    ]);
    if (!shared) return { environment, store, ledger: local, local, teamPartials: new Map() };
    const { ledger, partials } = withTeamBulks(local, shared.bulks, service, shared.server);
    return { environment, store, ledger, local, teamPartials: partials };
  };

  /** Per bulk that ended in ERROR part-way, what it took: this computer's from their files, colleagues' as recorded. */
  const partialsOf = async (ctx: Awaited<ReturnType<typeof context>>): Promise<Map<string, PartialTotals>> =>
    new Map([...(await partialTotals(ledgerDir, ctx.local, ctx.environment)), ...ctx.teamPartials]);

  const teamNow = (): TeamDatabase | null => deps.team?.() ?? null;
  const teamKey = async (): Promise<string> => environmentKeyOf(await deps.environments.describe());

  /**
   * Team mode: the bulks the team's uploads created at this service, read again after a while or
   * when asked; with the server out of reach, the last answer (or none: only this computer's
   * uploads are listed then). Never for the Offline sandbox: each computer has its own.
   */
  let teamBulksCache: { key: string; server: string; at: number; bulks: TeamBulk[] } | null = null;
  const teamBulksNow = async (
    fresh = false,
  ): Promise<{ server: string; bulks: TeamBulk[]; answered: boolean } | null> => {
    const team = teamNow();
    if (!team) return null;
    const service = await deps.environments.describe();
    if (service.emulated) return null;
    const key = environmentKeyOf(service);
    const cached =
      teamBulksCache && teamBulksCache.key === key && teamBulksCache.server === team.server
        ? teamBulksCache
        : null;
    if (cached && !fresh && Date.now() - cached.at < TEAM_BULKS_FRESH_MS)
      return { ...cached, answered: false };
    const file = join(deps.dataDir, 'reconcile', `team-bulks-${service.id}.json`);
    try {
      const bulks = await within(team.teamBulks(key), ELSEWHERE_WAIT_MS);
      const changed = JSON.stringify(bulks) !== JSON.stringify(cached?.bulks);
      teamBulksCache = { key, server: team.server, at: Date.now(), bulks };
      // Kept on disk too, so a restart while the server is away still lists colleagues' uploads.
      if (changed) {
        await mkdir(dirname(file), { recursive: true });
        await writeFileAtomic(file, JSON.stringify({ key, server: team.server, bulks }));
      }
      return { ...teamBulksCache, answered: true };
    } catch {
      if (cached) return { ...cached, answered: false };
      const kept = await readKeptTeamBulks(file, key, team.server);
      if (kept) teamBulksCache = { key, server: team.server, at: Date.now(), bulks: kept };
      return teamBulksCache ? { ...teamBulksCache, answered: false } : null;
    }
  };

  /**
   * Team mode: this computer's bulks of sent team uploads, written to the shared ledger where the
   * team's record is behind (the upload services write each as it moves; this catches what they
   * could not, and the totals of a part that ended in ERROR part-way, which need the kept file).
   */
  const publishOurBulks = async (local: LedgerSummaryView, environment: string): Promise<void> => {
    const team = teamNow();
    if (!team) return;
    const shared = await teamBulksNow(true);
    // Only against what the server says now: with it away, nothing is tried (the next refresh does).
    if (!shared?.answered) return;
    const key = await teamKey();
    const partials = await partialTotals(ledgerDir, local, environment);
    const known = new Map(shared.bulks.map((b) => [b.bulkId, b]));
    let published = false;
    for (const b of local.bulks) {
      if (b.group.environment !== environment) continue;
      const partial = partials.get(b.bulkId);
      const wanted = bulkToPublish(
        b.group,
        b.intent,
        key,
        team.server,
        partial && 'totals' in partial ? partial.totals : null,
      );
      if (!wanted || publishedAlready(known.get(b.bulkId), wanted)) continue;
      try {
        await team.publishBulk(wanted);
        published = true;
      } catch (e) {
        // Refused for this bulk (not this login's to write): the others may still be. Away: stop.
        if (!(e instanceof DeskFailure && e.code === 'TEAM_REFUSED')) break;
      }
    }
    if (published) await teamBulksNow(true);
  };

  /**
   * Team mode: colleagues' corrections of the open declined donations among these, by donation id.
   * Best effort: a team database that cannot be reached shows none, and never fails the page.
   */
  const elsewhereOf = async (
    donations: readonly StoredDonation[],
  ): Promise<Map<string, CorrectionElsewhere>> => {
    const team = teamNow();
    const ids = donations
      .filter(
        (d) =>
          d.resource.attributes.state.processingStatus === 'DECLINED' && d.resolution?.kind !== 'replaced',
      )
      .map((d) => d.resource.id);
    if (!team || ids.length === 0) return new Map();
    try {
      // A server slow to answer does not hold the page up: the claim, not the display, is the guard.
      const holders = await within(team.corrections(await teamKey(), ids), ELSEWHERE_WAIT_MS);
      const found = new Map<string, CorrectionElsewhere>();
      for (const [id, holder] of holders) {
        const shown = correctionElsewhere(holder);
        if (shown) found.set(id, shown);
      }
      return found;
    } catch {
      return new Map();
    }
  };

  /**
   * Team mode: a declined donation a colleague is correcting (or has replaced) is not dismissed here,
   * or the two computers would disagree on why it is closed. Best effort: with the server out of
   * reach the dismissal goes ahead (it sends nothing; the colleague's replacement still counts).
   */
  const refuseIfCorrectedElsewhere = async (donationId: string): Promise<void> => {
    const team = teamNow();
    if (!team) return;
    let holder;
    try {
      holder = (await team.corrections(await teamKey(), [donationId])).get(donationId);
    } catch {
      return;
    }
    if (holder && correctionElsewhere(holder)) {
      throw new DeskFailure(
        'CORRECTION_ELSEWHERE',
        holder.state === 'done'
          ? elsewhereMessage(holder)
          : `${holder.by} is already correcting this donation (from ${holder.computer || 'another computer'}, since ${holder.since.slice(0, 10)} ${holder.since.slice(11, 16)} UTC): it cannot be dismissed here while that correction stands. Ask ${holder.by}.`,
        { donationId, holder },
      );
    }
  };

  /**
   * Team mode: a dismissal is the team's (a colleague must not then correct the donation and pay the
   * gift the team closed), so it needs the team database: refused while someone corrects or has
   * replaced it, and while the server cannot be reached. Null alone.
   */
  const dismissForTeam = async (
    donationId: string,
    reason: string,
  ): Promise<(TeamDismissal & { me: string }) | null> => {
    const team = teamNow();
    if (!team) return null;
    try {
      const done = await team.dismiss(await teamKey(), donationId, reason);
      return { ...done, me: (await team.who()).login };
    } catch (e) {
      if (e instanceof DeskFailure && e.code === 'TEAM_REFUSED') {
        throw new DeskFailure('CORRECTION_ELSEWHERE', e.message, { donationId });
      }
      throw new DeskFailure(
        'TEAM_UNREACHABLE',
        `Dismissing is shared with the team, and the team database could not be reached (${e instanceof Error ? e.message : String(e)}); nothing was dismissed. Try again when it answers.`,
        { donationId },
      );
    }
  };

  /**
   * Team mode: a declined donation a colleague replaced from another computer is closed here too, by
   * their replacement (which this computer's listings may never bring back: it is in no bulk of
   * ours), so this computer's open count and month-end report agree with the team. Best effort.
   */
  const adoptColleaguesReplacements = async (store: DonationStore): Promise<void> => {
    const team = teamNow();
    if (!team) return;
    const open = store.page({ status: 'DECLINED', limit: 10_000 }).filter((d) => !d.resolution);
    if (open.length === 0) return;
    let holders;
    try {
      holders = await within(
        team.corrections(
          await teamKey(),
          open.map((d) => d.resource.id),
        ),
        ELSEWHERE_WAIT_MS,
      );
    } catch {
      return;
    }
    const at = new Date(now()).toISOString();
    let closed = 0;
    for (const [id, holder] of holders) {
      if (holder.state !== 'done' || !holder.replacementId) continue;
      store.resolve(id, { kind: 'replaced', at, replacementId: holder.replacementId, by: holder.by });
      closed++;
    }
    // Dismissed by a colleague: closed here too, with their reason.
    let dismissals;
    try {
      dismissals = await within(
        team.dismissals(
          await teamKey(),
          open.map((d) => d.resource.id).filter((id) => !holders.has(id)),
        ),
        ELSEWHERE_WAIT_MS,
      );
    } catch {
      dismissals = new Map<string, TeamDismissal>();
    }
    for (const [id, d] of dismissals) {
      store.resolve(id, { kind: 'dismissed', at: d.at, reason: d.reason, by: d.by });
      closed++;
    }
    if (closed > 0) await store.save();
  };

  /**
   * Team mode: donations sent one by one (single donations, corrections) are shared both ways: this
   * computer's go to the team's ledger where missing, and colleagues' are read from the service into
   * this store, counted in the month they were sent (so every computer's month-end report agrees),
   * and followed like this computer's own. Best effort: with the server away, the next refresh does it.
   */
  const shareOneByOne = async (store: DonationStore): Promise<void> => {
    const team = teamNow();
    if (!team) return;
    const service = await deps.environments.describe();
    if (service.emulated) return;
    const key = environmentKeyOf(service);
    let shared;
    try {
      shared = await within(team.sentOneByOne(key), ELSEWHERE_WAIT_MS);
    } catch {
      return;
    }
    const onTeam = new Set(shared.map((o) => o.donationId));
    try {
      for (const own of store.oneByOne()) {
        if (!onTeam.has(own.id)) await team.publishOne(key, own.id, own.kind, own.firstSeenAt);
      }
    } catch {
      // Not now: the next refresh publishes what is missing.
    }
    let read = 0;
    for (const theirs of shared) {
      if (store.known(theirs.donationId) !== undefined) continue;
      const resource = await client.getDonation(theirs.donationId);
      const at = new Date(now()).toISOString();
      const replaces = replacedBy(store, resource.attributes.metadata?.[REPLACES_KEY]);
      store.record(resource, null, at, { sentAt: theirs.sentAt, ...(replaces ? { replaces } : {}) });
      if (replaces && store.get(replaces)?.resolution?.kind !== 'replaced') {
        store.resolve(replaces, { kind: 'replaced', at, replacementId: resource.id, by: theirs.sentBy });
      }
      read++;
    }
    if (read > 0) await store.save();
  };

  /** Team mode: a donation just sent one by one goes to the team's ledger now (the next refresh retries). */
  const publishOneNow = async (donationId: string, kind: 'single' | 'replaces', sentAt: string) => {
    const team = teamNow();
    if (!team) return;
    try {
      const service = await deps.environments.describe();
      if (service.emulated) return;
      await within(team.publishOne(environmentKeyOf(service), donationId, kind, sentAt), ELSEWHERE_WAIT_MS);
    } catch {
      // The next refresh publishes it.
    }
  };

  /** Team mode: replacements this computer saw in a listing finish the claims this login holds. */
  const finishSeen = async (seen: ReadonlyArray<[declinedId: string, replacementId: string]>) => {
    const team = teamNow();
    if (!team || seen.length === 0) return;
    // Best effort: a claim left in progress shows "being corrected", never lets a second one through.
    try {
      const key = await teamKey();
      for (const [declinedId, replacementId] of seen) {
        try {
          await team.finishCorrection(key, declinedId, replacementId);
        } catch (e) {
          // Not this login's claim (or none): the next one may be. A server away: no use asking again.
          if (!(e instanceof DeskFailure && e.code === 'TEAM_REFUSED')) return;
        }
      }
    } catch {
      // The environment could not be described: nothing to finish against.
    }
  };

  const ledgerBulkIds = (ledger: LedgerSummaryView, environment: string): string[] =>
    ledger.bulks.filter((b) => b.group.environment === environment).map((b) => b.bulkId);

  /**
   * Donations made one at a time (single donations, corrections) belong to no bulk, so no bulk
   * listing brings them back: each one not yet final is read on its own.
   */
  const refreshSingles = async (store: DonationStore): Promise<void> => {
    await shareOneByOne(store);
    const singles = store.openSingles();
    for (const single of singles) {
      const resource = await client.getDonation(single.resource.id);
      store.record(resource, single.row, new Date(now()).toISOString());
    }
    if (singles.length > 0) await store.save();
  };

  /**
   * The listed donations as the database has them: with `limit`, one page and the total; without,
   * all of them (read page by page, for callers that asked for the whole list).
   */
  const listing = async (
    store: DonationStore,
    filter: DonationFilter,
    pages: number,
    inUploads: Map<string, InUpload>,
    paging: Pick<ChannelInput<'donations.list'>, 'limit' | 'offset' | 'after'>,
  ): Promise<ListResult> => {
    const total = store.count(filter);
    let donations: StoredDonation[];
    if (paging.limit !== undefined) {
      donations =
        paging.limit === 0
          ? []
          : store.page({
              ...filter,
              limit: paging.limit,
              ...(paging.offset !== undefined ? { offset: paging.offset } : {}),
              ...(paging.after ? { after: paging.after } : {}),
            });
    } else {
      donations = [];
      let after: DonationQuery['after'];
      for (;;) {
        const page = store.page({ ...filter, limit: 5_000, ...(after ? { after } : {}) });
        donations.push(...page);
        const last = page.at(-1);
        if (page.length < 5_000 || !last) break;
        after = store.cursorAfter(last.resource.id) ?? undefined;
        if (!after) break;
      }
    }
    const last = donations.at(-1);
    const full = paging.limit !== undefined && paging.limit > 0 && donations.length === paging.limit;
    const elsewhere = await elsewhereOf(donations);
    return {
      donations: donations.map((d) => donationView(d, inUploads, elsewhere)),
      total,
      next: full && last ? store.cursorAfter(last.resource.id) : null,
      lastRefreshAt: store.lastRefreshAt(),
      pages,
    };
  };

  const list = async (input: ChannelInput<'donations.list'>): Promise<ListResult> => {
    const { environment, store, ledger } = await context();
    // An empty list reads every donation of the account (no bulk filter), keeping those this app
    // made (to find a correction whose answer was lost); absent means the ledger's bulks.
    const bulkIds = input.bulkIds ?? ledgerBulkIds(ledger, environment);
    const everything = input.bulkIds !== undefined && input.bulkIds.length === 0;
    // A correction belongs to no bulk, but it is part of the story of the bulk whose donation it
    // replaces; donations made one at a time from the form belong to no bulk but to this app's list.
    const filter: DonationFilter = {
      bulkIds: everything ? null : bulkIds,
      singles: input.bulkIds === undefined,
      corrections: true,
      ...(input.status ? { status: input.status } : {}),
    };
    const paging = {
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.offset !== undefined ? { offset: input.offset } : {}),
      ...(input.after ? { after: input.after } : {}),
    };
    const inUploads = replacementsInUploads(ledger, environment);
    if (input.cached) return listing(store, filter, 0, inUploads, paging);
    // The uploads' list includes what was sent one by one: those are read too.
    if (input.bulkIds === undefined) await refreshSingles(store);
    const pages = await fetchInto(
      store,
      await readLedgerView(ledgerDir),
      everything ? [undefined] : bulkIds,
      {
        ...(everything ? { onlyOurs: new Set(ledgerBulkIds(ledger, environment)) } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.jobId ? { jobId: input.jobId } : {}),
        ...(input.pageSize ? { pageSize: input.pageSize } : {}),
      },
    );
    return listing(
      store,
      filter,
      pages,
      replacementsInUploads(await readLedgerSummaryView(ledgerDir), environment),
      paging,
    );
  };

  /** What a refresh must read: bulks with donations not yet final or never listed, and open single donations. */
  const openTargets = (
    store: DonationStore,
    ledger: LedgerSummaryView,
    environment: string,
  ): { bulkIds: string[]; singles: StoredDonation[] } => {
    const states = store.bulkStates();
    const listed = new Set(states.listed);
    const open = new Set(states.open);
    // A bulk that created donations but was never listed: all of them are still to be seen.
    for (const b of ledger.bulks) {
      if (b.group.environment !== environment || listed.has(b.bulkId)) continue;
      const created = b.intent.state === 'PROCESSED' || (b.intent.donationRowKeys?.length ?? 0) > 0;
      if (created) open.add(b.bulkId);
    }
    return { bulkIds: [...open], singles: store.openSingles() };
  };

  const refresh = async (input: ChannelInput<'donations.refresh'>): Promise<ListResult> => {
    // Team mode: what this computer sent goes to the shared ledger first, and the team's is read anew.
    if (teamNow()) {
      const service = await deps.environments.describe();
      await publishOurBulks(await readLedgerSummaryView(ledgerDir), service.id);
    }
    const { environment, store, ledger } = await context();
    const { bulkIds } = openTargets(store, ledger, environment);
    await refreshSingles(store);
    const pages = await fetchInto(store, await readLedgerView(ledgerDir), bulkIds, {
      ...(input.jobId ? { jobId: input.jobId } : {}),
      ...(input.pageSize ? { pageSize: input.pageSize } : {}),
    });
    // The store holds only this environment's donations: all of them are the answer.
    const after = await readLedgerSummaryView(ledgerDir);
    return listing(store, { bulkIds: null }, pages, replacementsInUploads(after, environment), {
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
    });
  };

  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  const schedule = (): void => {
    if (closed || !deps.backgroundMs) return;
    timer = setTimeout(() => {
      timer = null;
      inFlight = backgroundTick().finally(() => {
        inFlight = null;
        schedule();
      });
    }, deps.backgroundMs);
    timer.unref();
  };
  const backgroundTick = async (): Promise<void> => {
    try {
      const { environment, store, ledger } = await context();
      const targets = openTargets(store, ledger, environment);
      // Nothing open: no call to the service, and no job events for the screens to show.
      if (targets.bulkIds.length === 0 && targets.singles.length === 0) return;
      await refresh({ jobId: `background-${randomUUID()}` });
    } catch {
      // Offline, or the service refused: the job.status event said so; the next tick tries again.
    }
  };
  schedule();

  return {
    causesThatCannotReceive: async () => {
      const { store } = await context();
      // Only causes declined for such a reason can be unable; their donations are the only ones read.
      const causes = new Set(
        store
          .declinedWithCodes([...CAUSE_CODES])
          .map((d) => causeOf(d.resource.attributes.destination.recipientId)),
      );
      if (causes.size === 0) return new Map();
      const marks = [...causes].map((c) => `"recipientId":${JSON.stringify(c).slice(0, -1)}`);
      return causesThatCannotReceive([...store.each(marks)]);
    },
    checkReplacements: async (rows, uploadId) => {
      const { store, ledger, environment } = await context();
      checkReplacementRows(rows, (id) => store.get(id), replacementsInUploads(ledger, environment));
      // Team mode: a colleague may be correcting the same declined donations from their computer.
      const team = teamNow();
      if (team && uploadId) await claimForUpload(team, await teamKey(), uploadId, rows);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const controller of running.values()) controller.abort();
      await inFlight;
    },
    handlers: {
      'donations.list': (input) => list(input),
      'donations.refresh': (input) => refresh(input),
      'donations.page': async (input) => {
        const { environment, store, ledger } = await context();
        const ours = ledgerBulkIds(ledger, environment);
        // The screen's every upload: the ledger's bulks, what was sent one by one, and corrections.
        const every: DonationFilter = { bulkIds: ours, singles: true, corrections: true };
        const scope: DonationFilter =
          input.bulk === undefined
            ? every
            : input.bulk === null
              ? { ...every, oneByOne: true }
              : { bulkIds: [input.bulk] };
        const filter = { ...scope, ...(input.status ? { status: input.status } : {}) };
        const inUploads = replacementsInUploads(ledger, environment);
        const page = store.page({
          ...filter,
          limit: input.limit,
          offset: input.offset,
          order: input.order ?? 'firstSeen',
        });
        const elsewhere = await elsewhereOf(page);
        return {
          donations: page.map((d) => donationView(d, inUploads, elsewhere)),
          total: store.count(filter),
          declinedOpen: store.declinedOpen(scope),
          bulkIds: store.bulksWithDonations(ours),
          lastRefreshAt: store.lastRefreshAt(),
        };
      },
      'donations.cancel': ({ jobId }) => {
        const controller = running.get(jobId);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      'donations.correct': async (input) => {
        const { store, ledger, environment } = await context();
        const inUploads = replacementsInUploads(ledger, environment);
        refuseIfInUpload(inUploads, input.donationId);
        const team = teamNow();
        const guard = team ? teamCorrectionGuard(team, await teamKey(), { how: 'single' }) : undefined;
        const { declined, replacement } = await correctDeclined(
          client,
          store,
          input,
          () => new Date(now()).toISOString(),
          guard,
        );
        await publishOneNow(replacement.resource.id, 'replaces', replacement.firstSeenAt);
        return {
          declined: donationView(declined, inUploads),
          replacement: donationView(replacement, inUploads),
        };
      },
      'donations.fixInGrid': async ({ donationIds }) => {
        if (!deps.createWorkspace) {
          throw new DeskFailure('UNAVAILABLE', 'Fixing in a grid needs the Prepare workspaces.');
        }
        const { store, ledger, environment } = await context();
        const ids = [...new Set(donationIds)];
        // The same rules as the upload applies: only open declined donations in no other upload.
        checkReplacementRows(
          ids.map((donationId, i) => ({ rowKey: i, rowNumber: i + 2, donationId })),
          (id) => store.get(id),
          replacementsInUploads(ledger, environment),
        );
        const sheet = correctionSheet(ids.map((id) => store.get(id) as StoredDonation));
        const day = new Date(now()).toISOString().slice(0, 10);
        const name = `Corrections of ${count(ids.length, 'declined donation')} (${day})`;
        const created = await deps.createWorkspace({
          name,
          source: {
            fileName: 'Declined donations',
            format: 'declined',
            sheet: 'Declined',
            headerRow: 1,
            headerRowCount: 1,
            totalsRow: null,
            skippedBlankRows: 0,
            warnings: [],
          },
          headers: sheet.headers,
          rows: sheet.rows,
          mapping: sheet.mapping as unknown as Record<string, unknown>,
        });
        return { workspaceId: created.id, name, rows: sheet.rows.length };
      },
      'donations.correctFromWorkspace': async ({ workspaceId, jobId }) => {
        if (!deps.readWorkspace) {
          throw new DeskFailure('UNAVAILABLE', 'Sending corrections needs the Prepare workspaces.');
        }
        const { store, ledger, environment } = await context();
        const workspace = await deps.readWorkspace(workspaceId);
        const id = jobId ?? randomUUID();
        const team = teamNow();
        const guard = team ? teamCorrectionGuard(team, await teamKey(), { how: 'single' }) : undefined;
        deps.events.emit('job.status', { jobId: id, kind: 'corrections', status: 'running' });
        try {
          const results = await correctFromWorkspace(
            client,
            store,
            workspace,
            replacementsInUploads(ledger, environment),
            () => new Date(now()).toISOString(),
            (done, total) =>
              deps.events.emit('job.progress', {
                jobId: id,
                kind: 'corrections',
                stage: 'sending',
                done,
                total,
                message: `${done} of ${count(total, 'correction')} sent`,
              }),
            guard,
          );
          deps.events.emit('job.status', { jobId: id, kind: 'corrections', status: 'succeeded' });
          const sentAt = new Date(now()).toISOString();
          for (const r of results) {
            if (r.outcome === 'replaced' && r.replacementId) {
              await publishOneNow(
                r.replacementId,
                'replaces',
                store.get(r.replacementId)?.firstSeenAt ?? sentAt,
              );
            }
          }
          return { results };
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          deps.events.emit('job.status', { jobId: id, kind: 'corrections', status: 'failed', message });
          throw e;
        }
      },
      'donations.create': async (input) => {
        const { store } = await context();
        const { stored, created } = await createSingleDonation(client, store, input, () =>
          new Date(now()).toISOString(),
        );
        await publishOneNow(stored.resource.id, 'single', stored.firstSeenAt);
        return { donation: donationView(stored, new Map()), created };
      },
      'donations.dismiss': async ({ donationId, reason }) => {
        const { store, ledger, environment } = await context();
        refuseIfInUpload(replacementsInUploads(ledger, environment), donationId);
        const stored = store.get(donationId);
        if (!stored)
          throw new DeskFailure(
            'NOT_FOUND',
            `Donation ${donationId} is not in the list; list the donations first.`,
          );
        if (stored.resource.attributes.state.processingStatus !== 'DECLINED') {
          throw new DeskFailure('NOT_DECLINED', 'Only a declined donation can be dismissed.');
        }
        if (stored.resolution?.kind === 'replaced') {
          throw new DeskFailure(
            'ALREADY_RESOLVED',
            `This donation was already replaced by ${stored.resolution.replacementId}.`,
          );
        }
        await refuseIfCorrectedElsewhere(donationId);
        const shared = await dismissForTeam(donationId, reason);
        const dismissed = store.resolve(donationId, {
          kind: 'dismissed',
          at: shared?.at ?? new Date(now()).toISOString(),
          reason: shared?.reason ?? reason,
          // Dismissed first by a colleague: theirs stands, and says who.
          ...(shared && shared.by !== shared.me ? { by: shared.by } : {}),
        });
        await store.save();
        return donationView(dismissed, new Map());
      },
      'donations.report': async ({ month, refresh: refreshFirst }) => {
        // Refresh reads every bulk never listed and every donation not yet final (singles too):
        // the rest cannot have changed.
        if (refreshFirst) await refresh({});
        const ctx = await context();
        const { environment, store, ledger } = ctx;
        return monthReport(month, environment, ledger, store, {
          generatedAt: new Date(now()).toISOString(),
          lastRefreshAt: store.lastRefreshAt(),
          partials: await partialsOf(ctx),
        });
      },
      'donations.summary': async () => {
        const ctx = await context();
        const { environment, store, ledger } = ctx;
        return {
          byStatus: store.totals(),
          uploads: uploadControls(ledger, environment, store.bulkSums(ledgerBulkIds(ledger, environment)), {
            lastRefreshAt: store.lastRefreshAt(),
            partials: await partialsOf(ctx),
          }),
          lastRefreshAt: store.lastRefreshAt(),
        };
      },
    },
  };
}
