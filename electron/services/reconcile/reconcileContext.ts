import { join } from 'node:path';
import { ServiceClient, type RetryOptions } from '../api/serviceClient';
import type { Environments } from '../environments/environments';
import type { EventBus } from '../core/eventBus';
import { DonationStore } from './donationStore';
import type { LedgerSharing } from './ledgerSharing';
import { readLedgerSummaryView, type LedgerSummaryView } from './ledgerView';
import { partialTotals, type PartialTotals } from './partialTotals';
import { withTeamBulks } from './teamBulks';

/** What one call of the reconcile services works on: the environment in force, its store and the ledger. */
export interface ReconcileContext {
  environment: string;
  store: DonationStore;
  /** This computer's uploads, and in team mode the ones colleagues sent from their computers. */
  ledger: LedgerSummaryView;
  /** This computer's own uploads only (their files and rows are here). */
  local: LedgerSummaryView;
  /** What colleagues' bulks that ended in ERROR part-way took, as their computers recorded it. */
  teamPartials: Map<string, PartialTotals>;
}

/** What every part of Reconcile shares: the service, the stores, the events and the ledger sharing. */
export interface ReconcileRuntime {
  client: ServiceClient;
  environments: Environments;
  events: EventBus;
  sharing: LedgerSharing;
  /** Where the upload ledger is kept. */
  ledgerDir: string;
  now: () => number;
  /** Now, as an ISO time. */
  at: () => string;
  /** Listings running, by job id (donations.cancel aborts one). */
  running: Map<string, AbortController>;
  context(): Promise<ReconcileContext>;
  /** Per bulk that ended in ERROR part-way, what it took: this computer's from their files, colleagues' as recorded. */
  partialsOf(ctx: ReconcileContext): Promise<Map<string, PartialTotals>>;
}

export interface RuntimeDeps {
  dataDir: string;
  environments: Environments;
  events: EventBus;
  sharing: LedgerSharing;
  fetchImpl?: typeof fetch;
  retry?: Partial<RetryOptions>;
  now?: () => number;
}

export function createRuntime(deps: RuntimeDeps): ReconcileRuntime {
  const now = deps.now ?? Date.now;
  const client = new ServiceClient(() => deps.environments.resolve(), {
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
  });
  const ledgerDir = join(deps.dataDir, 'uploads');
  const stores = new Map<string, Promise<DonationStore>>();

  const storeFor = (environment: string): Promise<DonationStore> => {
    let store = stores.get(environment);
    if (!store) {
      store = DonationStore.open(join(deps.dataDir, 'reconcile', `donations-${environment}.json`));
      store.catch(() => stores.delete(environment));
      stores.set(environment, store);
    }
    return store;
  };

  // The ledger's summaries (no rows' keys or fingerprints): what every page, total and report needs;
  // only a read from the service, which ties donations to rows, reads the whole records.
  // In team mode the ledger includes the uploads colleagues sent from their computers (teamBulks.ts).
  const context = async (): Promise<ReconcileContext> => {
    const service = await deps.environments.describe();
    const environment = service.id;
    const [store, local, shared] = await Promise.all([
      storeFor(environment),
      readLedgerSummaryView(ledgerDir),
      deps.sharing.colleaguesBulks(),
    ]);
    if (!shared) return { environment, store, ledger: local, local, teamPartials: new Map() };
    const { ledger, partials } = withTeamBulks(local, shared.bulks, service, shared.server);
    return { environment, store, ledger, local, teamPartials: partials };
  };

  return {
    client,
    environments: deps.environments,
    events: deps.events,
    sharing: deps.sharing,
    ledgerDir,
    now,
    at: () => new Date(now()).toISOString(),
    running: new Map(),
    context,
    partialsOf: async (ctx) =>
      new Map([...(await partialTotals(ledgerDir, ctx.local, ctx.environment)), ...ctx.teamPartials]),
  };
}

/** The bulk ids of the ledger's uploads to this environment. */
export function ledgerBulkIds(ledger: LedgerSummaryView, environment: string): string[] {
  return ledger.bulks.filter((b) => b.group.environment === environment).map((b) => b.bulkId);
}
