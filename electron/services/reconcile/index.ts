/*
 * Reconciliation: the donations the uploads created, read page by page from the service, tied back
 * to their workspace rows, kept with the states seen over time, and totalled per status and per
 * upload. This file lists the domain's channels; each job lives in its own module.
 */
import type { ChannelInput, ChannelName, Handler } from '../../../shared/contract';
import type { reconcileChannels } from '../../../shared/contract/reconcileChannels';
import type { CannotReceive } from '../../../shared/contract/searchChannels';
import type { RetryOptions } from '../api/serviceClient';
import type { Environments } from '../environments/environments';
import type { EventBus } from '../core/eventBus';
import type { CheckReplacements } from '../upload/context';
import { CAUSE_CODES, causeOf, causesThatCannotReceive } from './causeStanding';
import {
  correctFromWorkspaceJob,
  correctOne,
  fixInGrid,
  type CreateWorkspace,
  type ReadWorkspace,
} from './correctionHandlers';
import { dismissDeclined } from './dismissal';
import { listDonationsOf } from './donationListing';
import { donationsPage, donationsReport, donationsSummary } from './donationPages';
import { refreshDonations, startBackgroundRefresh } from './donationRefresh';
import { localLedgerSharing, type LedgerSharing } from './ledgerSharing';
import { readLedgerSummaryView } from './ledgerView';
import { createRuntime } from './reconcileContext';
import { checkReplacementRows, replacementsInUploads } from './replacements';
import { createSingleDonation } from './singleDonation';
import { donationView } from './views';

type ReconcileChannel = keyof typeof reconcileChannels & ChannelName;

export interface ReconcileServices {
  handlers: { [C in ReconcileChannel]: Handler<C> };
  /** The upload's check of rows that replace declined donations (see UploadContext.checkReplacements). */
  checkReplacements: CheckReplacements;
  /** Causes this app has seen declined because they cannot take money (for the cause suggestions). */
  causesThatCannotReceive(): Promise<Map<string, CannotReceive>>;
  /**
   * Team mode, a colleague's bulk moved (the team's news): the team's bulks are read again now, so
   * what Reconcile shows next has it, and then, in the background, the donations still open (its
   * donations among them, once it has any). Nothing when nothing is shared (alone, Offline sandbox).
   */
  colleagueMoved(): Promise<void>;
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
  createWorkspace?: CreateWorkspace;
  /** Reads a Prepare workspace (its rows are sent one by one by donations.correctFromWorkspace). */
  readWorkspace?: ReadWorkspace;
  /**
   * What is shared with colleagues' computers (team mode): bulks and donations sent, corrections
   * claimed, dismissals. Absent: working alone, nothing shared.
   */
  sharing?: LedgerSharing;
}

export function createReconcileServices(deps: ReconcileDeps): ReconcileServices {
  const rt = createRuntime({ ...deps, sharing: deps.sharing ?? localLedgerSharing });
  const refresh = (input: ChannelInput<'donations.refresh'>) => refreshDonations(rt, input);
  const background = startBackgroundRefresh(rt, deps.backgroundMs ?? 0, refresh);
  // The app reads the ledger's summaries once as it starts (they are kept until the ledger
  // changes): at a year of history that takes most of a second, which the first visit to Reconcile
  // would otherwise wait for. A command-line run reads them only when a command needs them.
  if (deps.backgroundMs)
    setTimeout(() => void readLedgerSummaryView(rt.ledgerDir).catch(() => undefined), 0).unref();

  return {
    causesThatCannotReceive: async () => {
      const { store } = await rt.context();
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
      const { store, ledger, environment } = await rt.context();
      checkReplacementRows(rows, (id) => store.get(id), replacementsInUploads(ledger, environment));
      // Team mode: a colleague may be correcting the same declined donations from their computer.
      if (uploadId) await rt.sharing.claimForUpload(uploadId, rows);
    },
    colleagueMoved: async () => {
      if (!(await rt.sharing.colleaguesBulks(true))) return;
      void background.now();
    },
    close: () => background.close(),
    handlers: {
      'donations.list': (input) => listDonationsOf(rt, input),
      'donations.refresh': refresh,
      'donations.page': (input) => donationsPage(rt, input),
      'donations.cancel': ({ jobId }) => {
        const controller = rt.running.get(jobId);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      'donations.correct': (input) => correctOne(rt, input),
      'donations.fixInGrid': (input) => fixInGrid(rt, deps.createWorkspace, input),
      'donations.correctFromWorkspace': (input) => correctFromWorkspaceJob(rt, deps.readWorkspace, input),
      'donations.create': async (input) => {
        const { store } = await rt.context();
        const { stored, created } = await createSingleDonation(rt.client, store, input, rt.at);
        await rt.sharing.publishOne(stored.resource.id, 'single', stored.firstSeenAt);
        return { donation: donationView(stored, new Map()), created };
      },
      'donations.dismiss': (input) => dismissDeclined(rt, input),
      // The report needs only the store's sums afterwards: the refresh hands back no donation.
      'donations.report': (input) => donationsReport(rt, input, () => refresh({ limit: 0 })),
      'donations.summary': () => donationsSummary(rt),
    },
  };
}
