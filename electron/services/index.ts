import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Services } from '../../shared/contract';
import { DeskFailure } from '../../shared/result';
import { EventBus } from './core/eventBus';
import type { PlatformAdapter } from './core/platform';
import { Environments, type StartOfflineService } from './environments/environments';
import { offlineSandboxApart } from './environments/offlineApart';
import { nodeApartProcess } from './core/nodeApartProcess';
import type { LaunchApartProcess } from './core/apartProcess';
import { SHEETJS_READER_SOURCE } from './spreadsheet/sheetJSReaderSource';
import { isAllowedExternalUrl } from './core/externalUrl';
import { openSettingsFile, type KeyValueStore } from './settings/keyValueStore';
import { SettingsService } from './settings/settingsService';
import { WorkspaceStore } from './workspaces/workspaceStore';
import { TemplateStore } from './templates/templateStore';
import { createUploadServices } from './upload';
import { workspaceStanding } from './upload/workspaceStanding';
import { createSearchServices } from './search';
import { createLocationServices } from './locations';
import { createReconcileServices } from './reconcile';
import { teamLedgerSharing } from './team/ledgerSharing/teamLedgerSharing';
import { exportBulkFile } from './workspaces/exportBulkFile';
import { sandboxClockHandlers } from './environments/sandboxClock';
import { calendarHandlers } from './environments/calendarHandlers';
import { sheetJSHandlers } from './spreadsheet/sheetJSHandlers';
import { MaintenanceWatch } from './api/maintenanceWatch';
import { AnnouncedMaintenance } from './settings/announcedMaintenance';
import { createDataServices } from './db/dataServices';
import { count } from '../../shared/i18n';
import { auditedServices, createAuditServices, type AuditTrail } from './audit';
import { osIdentity } from './core/identity';
import { environmentIdSchema, type EnvironmentId } from '../../shared/contract';
import { createTeamServices, teamConnectionOf } from './team/teamServices';
import type { TeamDatabase } from './team/teamTypes';
import type { TeamNews } from './team/teamNews';
import type { UploadView } from '../../shared/contract/uploadChannels';
import { TeamConnection } from './team/teamConnection';
import { teamSendGates } from './team/sendGate/teamSendGate';
import { TeamAuditOutbox } from './team/teamAuditOutbox';
import { TeamNewsHub } from './team/teamNewsHub';
import { databaseOf } from './db/deskDatabase';

export interface DeskRuntime {
  services: Services;
  events: EventBus;
  settings: SettingsService;
  environments: Environments;
  workspaces: WorkspaceStore;
  /** Who did what: every import, edit, upload, correction, dismissal and settings change. */
  audit: AuditTrail;
  /** Team mode: the shared database in force (current() is null alone). */
  team: TeamSource;
  /** Team mode: copies this folder's audit entries to the team's trail (resolves when done). */
  pushAudit(): Promise<number>;
  /** Sends what can be sent now (approved uploads in team mode) and resolves after that pass. */
  resumeUploads(): Promise<void>;
  /** Team mode, the approver sends: sends an upload this login approved (see UploadServices). */
  sendApproved(uploadId: string): Promise<{ uploadId: string; upload: UploadView; problems: string[] }>;
  /**
   * Team mode: the team's news as the team database tells it (LISTEN/NOTIFY). listen() opens the
   * one listening connection (the app does at start; a command when it waits); next() resolves at
   * the next piece of news, or null after the time given, so a wait sleeps on it and polls as before.
   */
  news: {
    listen(): Promise<void>;
    next(timeoutMs: number, signal?: AbortSignal): Promise<{ kind: string; upload: string | null } | null>;
    listening(): boolean;
  };
  /** Stops timers, pollers and the in-process emulator. */
  close(): Promise<void>;
}

export interface DeskOptions {
  /** The settings store; Electron passes electron-store, other hosts get conf in the data dir. */
  settingsStore?: KeyValueStore;
  /** Command-line overrides (CLI, bridge) applied to this run only, never saved. */
  overrides?: { environment?: string; baseUrl?: string; tokenUrl?: string };
  /** How the Offline sandbox is started; tests may share one emulator. */
  startOffline?: StartOfflineService;
  fetchImpl?: typeof fetch;
  /** Team mode: where the shared database comes from (default: none, working alone). */
  team?: TeamSource;
}

/** The team database in force now, or null alone (TeamConnection answers it from the address in use). */
export interface TeamSource {
  current(): TeamDatabase | null;
}

export { EventBus };
export type { PlatformAdapter };

/** Virtual seconds per real second in the Offline sandbox, so a practice run finishes in minutes. */
const OFFLINE_TIME_SCALE = 60;

export const SAMPLE_SPREADSHEET = 'sample-donations.xlsx';

/** The composition root shared by the Electron main process, the local bridge and the CLI. */
export async function startDesk(platform: PlatformAdapter, options: DeskOptions = {}): Promise<DeskRuntime> {
  const env = platform.env ?? {};
  const store = options.settingsStore ?? openSettingsFile(platform.dataDir);
  const settings = new SettingsService(store, platform.secretBox, env);
  const overrides = options.overrides ?? {};
  let environment: EnvironmentId | undefined;
  if (overrides.environment) {
    const parsed = environmentIdSchema.safeParse(overrides.environment);
    if (!parsed.success) {
      throw new DeskFailure(
        'INVALID_INPUT',
        `Unknown environment "${overrides.environment}": use offline, sandbox, production or custom.`,
      );
    }
    environment = parsed.data;
  }
  if ((overrides.baseUrl || overrides.tokenUrl) && !environment) environment = 'custom';
  settings.overrideForRun({ environment, baseUrl: overrides.baseUrl, tokenUrl: overrides.tokenUrl });
  const timeScale = Number(env.DONATION_DESK_OFFLINE_TIME_SCALE) || OFFLINE_TIME_SCALE;
  const offlineOptions = {
    dataDir: join(platform.dataDir, 'offline-sandbox'),
    timeScale,
    // Recipients are looked up when a bulk file is validated, so a practice run meets the repair path.
    recipientCheck: 'validation' as const,
  };
  const launchApart = platform.launchApartProcess;
  const startOffline =
    options.startOffline ??
    // In a process of its own where the host can start one: what it holds stays out of this one.
    (launchApart
      ? offlineSandboxApart(launchApart, offlineOptions)
      : async () => {
          // Loaded on first use: hosts that never touch the Offline sandbox never load the emulator.
          const { startEmulator } = await import('../../emulator/server');
          return startEmulator({ ...offlineOptions, quiet: true });
        });
  // The service's scheduled maintenance: the dates announced in Settings, and the hold every client shares.
  const announcedMaintenance = new AnnouncedMaintenance(store);
  const maintenance = new MaintenanceWatch(() => announcedMaintenance.dates());
  const environments = new Environments(settings, startOffline, options.fetchImpl, maintenance);
  const events = new EventBus();
  const identity = platform.identity ?? osIdentity(env);
  // Team mode: DONATION_DESK_DATABASE_URL wins over Settings → Team database; neither is working alone.
  const ownTeam = options.team
    ? null
    : new TeamConnection({
        env,
        settingsUrl: () => settings.teamDatabaseUrl(),
        computer: identity.computer(),
      });
  const team: TeamSource = options.team ?? (ownTeam as TeamConnection);
  // Team mode shares the audit trail through the team database's outbox (with this folder's database).
  const auditOutbox = new TeamAuditOutbox(
    () => databaseOf(platform.dataDir),
    () => team.current(),
  );
  const audit = createAuditServices({
    dataDir: platform.dataDir,
    identity,
    environment: () => settings.environment(),
    sharing: auditOutbox,
  });
  const workspaces = new WorkspaceStore(join(platform.dataDir, 'workspaces'), audit.workspaceObserver);
  const templates = new TemplateStore(platform.dataDir);
  const fetchOption = options.fetchImpl ? { fetchImpl: options.fetchImpl } : {};
  // Open donations are refreshed every few minutes in the app; a CLI run only reads on demand.
  const reconcileEvery =
    Number(env.DONATION_DESK_RECONCILE_POLL_MS) || (platform.mode === 'cli' ? 0 : 5 * 60_000);
  const reconcile = createReconcileServices({
    dataDir: platform.dataDir,
    environments,
    events,
    backgroundMs: reconcileEvery,
    createWorkspace: (input) => workspaces.create(input),
    readWorkspace: (id) => workspaces.read(id),
    sharing: teamLedgerSharing({
      dataDir: platform.dataDir,
      team: () => team.current(),
      describe: () => environments.describe(),
    }),
    ...fetchOption,
  });
  const upload = createUploadServices({
    dataDir: platform.dataDir,
    environments,
    workspaces,
    events,
    platform,
    checkReplacements: reconcile.checkReplacements,
    // Team mode's gate whenever a team database may be in force; it asks which one at each use.
    sendGates: teamSendGates(() => team.current(), identity.computer()),
    ...fetchOption,
  });
  // Any edit of a workspace whose upload waits for approval (or is approved, not sent) voids it.
  workspaces.onEdited((id, version) => upload.workspaceEdited(id, version));
  const search = createSearchServices({
    environments,
    causesThatCannotReceive: reconcile.causesThatCannotReceive,
    ...fetchOption,
  });
  const locations = createLocationServices({ dataDir: platform.dataDir, environments, ...fetchOption });

  // The approvers' notification and the side bar's count: every 30 seconds in the app.
  const teamServices = createTeamServices({
    connection: ownTeam ?? teamConnectionOf(team),
    settings,
    events,
    platform,
    pollMs: Number(env.DONATION_DESK_APPROVALS_POLL_MS) || 30_000,
    sendApproved: (uploadId) => upload.sendApproved(uploadId),
    recordBlocked: (uploadId, details) => audit.trail.recordDone('approval-blocked', { uploadId }, details),
  });

  // The team's news at once: a decision, a submission or a colleague's sent bulk is read again now
  // (the side bar's count, the uploads waiting here, Approvals) instead of at the next poll.
  const inApp = platform.mode !== 'cli';
  const reactToNews = async (news: TeamNews): Promise<void> => {
    await teamServices.pollNow();
    if (news.kind !== 'submitted') await upload.resumeNow().catch(() => undefined);
    // A colleague's bulk moved: Reconcile reads the team's bulks again, then their donations.
    if (news.kind === 'bulk' || news.kind === 'resync')
      await reconcile.colleagueMoved().catch(() => undefined);
    events.emit('team.news', { kind: news.kind, uploadId: news.upload });
  };
  const teamNews = new TeamNewsHub({
    current: () => safeCurrent(team),
    ...(inApp ? { onNews: (news: TeamNews) => void reactToNews(news).catch(() => undefined) } : {}),
  });
  const unsubscribeNews = inApp
    ? events.subscribe((name) => {
        if (name === 'settings.changed') void teamNews.ensure();
      })
    : () => undefined;
  if (inApp) void teamNews.ensure();

  // A ledger held by another process (a CLI run) leaves the workspaces' standing unknown, not wrong.
  const uploadsIfReadable = () => upload.uploadsSoFar().catch(() => null);

  const handlers: Services = {
    'app.info': async () => ({
      name: 'Donation Desk',
      version: platform.appVersion,
      mode: platform.mode === 'electron' ? 'electron' : 'browser',
      dataDir: platform.dataDir,
      environment: await environments.describe(),
    }),
    'settings.get': () => settings.publicSettings(),
    'settings.save': (update) => {
      const before = settings.environment();
      const saved = settings.update(update);
      // A new team database (or none) changes what the header, side bar and Approvals show too.
      if (saved.environment !== before || update.teamDatabase !== undefined) {
        events.emit('settings.changed', { environment: saved.environment });
      }
      return saved;
    },
    'settings.testConnection': async ({ environment, remote }) => {
      const id = environment ?? settings.environment();
      try {
        // A client of its own: testing never saves, never switches and never touches the token in use.
        const probe = await environments.probe(id, id === 'offline' ? undefined : remote);
        const token = await probe.tokens.obtain();
        const minutes = Math.round(token.expiresIn / 60);
        const inForce = id === settings.environment();
        return {
          ok: true,
          environment: id,
          message:
            `Connected to ${probe.label}: the service issued a token valid for ${count(minutes, 'minute')}.` +
            (inForce ? '' : ` Nothing was changed: press Save to work with ${probe.label}.`),
          expiresIn: token.expiresIn,
        };
      } catch (e) {
        if (e instanceof DeskFailure) return { ok: false, environment: id, message: e.message };
        throw e;
      }
    },
    ...sandboxClockHandlers(settings, environments, options.fetchImpl),
    ...calendarHandlers(announcedMaintenance, environments, events),
    ...sheetJSHandlers(process.env, platform.launchApartProcess),
    'assets.sampleSpreadsheet': async () => {
      const bytes = await readFile(join(platform.assetsDir, SAMPLE_SPREADSHEET)).catch(() => {
        throw new DeskFailure(
          'NOT_FOUND',
          'The sample spreadsheet is missing from this installation. Reinstall the app.',
        );
      });
      return { fileName: SAMPLE_SPREADSHEET, base64: bytes.toString('base64') };
    },
    'external.open': async ({ url }) => {
      const info = await environments.describe();
      if (!info.programUrl || !isAllowedExternalUrl(url, info.programUrl)) {
        throw new DeskFailure(
          'FORBIDDEN_URL',
          'That address is not on the giving program’s site, so the app will not open it.',
        );
      }
      if (platform.mode === 'browser') return { opened: false };
      // Reviewed: the address passed isAllowedExternalUrl just above (https on the program domain).
      await platform.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK
      return { opened: true };
    },
    'workspace.list': async () => {
      const [list, uploads] = await Promise.all([workspaces.list(), uploadsIfReadable()]);
      return uploads
        ? list.map((meta) => ({ ...meta, standing: workspaceStanding(meta.id, uploads) }))
        : list;
    },
    'workspace.stageRows': ({ packedRows }) => workspaces.stageRows(packedRows),
    'workspace.create': (input) => workspaces.create(input),
    'workspace.open': async ({ id }) => {
      const [workspace, uploads] = await Promise.all([workspaces.open(id), uploadsIfReadable()]);
      return uploads ? { ...workspace, standing: workspaceStanding(id, uploads) } : workspace;
    },
    'workspace.edit': ({ id, baseVersion, edits }) => workspaces.edit(id, baseVersion, edits),
    'workspace.summary': ({ id, counts, state }) => workspaces.summary(id, counts, state),
    'workspace.exportBulkFile': async ({ id }) => {
      const file = await exportBulkFile(await workspaces.read(id));
      return {
        fileName: file.fileName,
        base64: file.bytes.toString('base64'),
        donations: file.donations,
        skipped: file.skipped,
      };
    },
    'workspace.delete': ({ id }) => workspaces.delete(id),
    'templates.list': () => templates.list(),
    'templates.save': ({ name, template }) => templates.save(name, template),
    'templates.delete': ({ name }) => templates.remove(name),
    ...upload.handlers,
    ...search.handlers,
    ...locations.handlers,
    ...reconcile.handlers,
    ...audit.handlers,
    ...createDataServices(platform).handlers,
    ...teamServices.handlers,
  };
  const services = auditedServices(handlers, {
    trail: audit.trail,
    settings: () => settings.publicSettings(),
    uploadGroup: audit.uploadGroup,
  });
  upload.resume();

  return {
    services,
    events,
    settings,
    environments,
    workspaces,
    audit: audit.trail,
    team,
    resumeUploads: () => upload.resumeNow(),
    sendApproved: (uploadId) => upload.sendApproved(uploadId),
    pushAudit: () => (safeCurrent(team) ? auditOutbox.push() : Promise.resolve(0)),
    news: {
      listen: () => teamNews.ensure(),
      next: (timeoutMs, signal) => teamNews.next(timeoutMs, signal),
      listening: () => teamNews.listening(),
    },
    close: async () => {
      unsubscribeNews();
      await teamNews.close();
      teamServices.close();
      await upload.close();
      await reconcile.close();
      // A command's last entries reach the team's trail before it exits (best effort, as always).
      if (safeCurrent(team)) await auditOutbox.push().catch(() => undefined);
      await ownTeam?.close();
      await environments.close();
    },
  };
}

/** The team database in force, or null when there is none or its address cannot be used. */
function safeCurrent(team: TeamSource): TeamDatabase | null {
  try {
    return team.current();
  } catch {
    return null;
  }
}

/**
 * The apart programs of a host that runs on plain Node (the CLI, the local bridge), from the folder
 * of its bundle in out/: the spreadsheet reader's program, and the emulator's bundle beside it
 * (out/emulator/index.cjs) as the Offline sandbox.
 */
export function plainNodeApartProcess(bundleDir: string): LaunchApartProcess {
  return nodeApartProcess({
    sheetJSReader: { source: SHEETJS_READER_SOURCE },
    offlineSandbox: { file: join(bundleDir, '..', 'emulator', 'index.cjs') },
  });
}
