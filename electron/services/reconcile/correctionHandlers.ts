/*
 * Declined donations corrected: one at a time from the form, gathered into a Prepare workspace to
 * fix in the grid, or sent row by row from that workspace. In team mode each correction is claimed
 * first (ledgerSharing's correction guard) and each replacement goes to the team's ledger.
 */
import { randomUUID } from 'node:crypto';
import type {
  ChannelInput,
  ChannelResponse,
  Workspace,
  WorkspaceRow,
  WorkspaceSource,
} from '../../../shared/contract';
import { count } from '../../../shared/i18n';
import { DeskFailure } from '../../../shared/result';
import { correctDeclined } from './corrections';
import type { StoredDonation } from './donationStore';
import type { ReconcileRuntime } from './reconcileContext';
import { checkReplacementRows, correctionSheet, replacementsInUploads, type InUpload } from './replacements';
import { donationView } from './views';
import { correctFromWorkspace } from './workspaceCorrections';

/** Makes a Prepare workspace (corrections of declined donations are fixed and sent from one). */
export type CreateWorkspace = (input: {
  name: string;
  source: WorkspaceSource;
  headers: string[];
  rows: WorkspaceRow[];
  mapping: Record<string, unknown> | null;
}) => Promise<{ id: string }>;

/** Reads a Prepare workspace (its rows are sent one by one by donations.correctFromWorkspace). */
export type ReadWorkspace = (id: string) => Promise<Workspace>;

export function refuseIfInUpload(inUploads: Map<string, InUpload>, donationId: string): void {
  const upload = inUploads.get(donationId);
  if (upload) {
    throw new DeskFailure(
      'IN_UPLOAD',
      `Donation ${donationId} is being replaced by the upload of “${upload.workspaceName}” (${upload.createdAt.slice(0, 10)}); follow that upload in Uploads.`,
    );
  }
}

/** donations.correct: one declined donation replaced by a corrected one. */
export async function correctOne(
  rt: ReconcileRuntime,
  input: ChannelInput<'donations.correct'>,
): Promise<ChannelResponse<'donations.correct'>> {
  const { store, ledger, environment } = await rt.context();
  const inUploads = replacementsInUploads(ledger, environment);
  refuseIfInUpload(inUploads, input.donationId);
  const guard = await rt.sharing.correctionGuard();
  const { declined, replacement } = await correctDeclined(rt.client, store, input, rt.at, guard);
  await rt.sharing.publishOne(replacement.resource.id, 'replaces', replacement.firstSeenAt);
  return {
    declined: donationView(declined, inUploads),
    replacement: donationView(replacement, inUploads),
  };
}

/** donations.fixInGrid: the declined donations as rows of a new Prepare workspace. */
export async function fixInGrid(
  rt: ReconcileRuntime,
  createWorkspace: CreateWorkspace | undefined,
  { donationIds }: ChannelInput<'donations.fixInGrid'>,
): Promise<ChannelResponse<'donations.fixInGrid'>> {
  if (!createWorkspace) {
    throw new DeskFailure('UNAVAILABLE', 'Fixing in a grid needs the Prepare workspaces.');
  }
  const { store, ledger, environment } = await rt.context();
  const ids = [...new Set(donationIds)];
  // The same rules as the upload applies: only open declined donations in no other upload.
  checkReplacementRows(
    ids.map((donationId, i) => ({ rowKey: i, rowNumber: i + 2, donationId })),
    (id) => store.get(id),
    replacementsInUploads(ledger, environment),
  );
  const sheet = correctionSheet(ids.map((id) => store.get(id) as StoredDonation));
  const day = rt.at().slice(0, 10);
  const name = `Corrections of ${count(ids.length, 'declined donation')} (${day})`;
  const created = await createWorkspace({
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
}

/** donations.correctFromWorkspace: each row of a corrections workspace sent as a replacement, as one job. */
export async function correctFromWorkspaceJob(
  rt: ReconcileRuntime,
  readWorkspace: ReadWorkspace | undefined,
  { workspaceId, jobId }: ChannelInput<'donations.correctFromWorkspace'>,
): Promise<ChannelResponse<'donations.correctFromWorkspace'>> {
  if (!readWorkspace) {
    throw new DeskFailure('UNAVAILABLE', 'Sending corrections needs the Prepare workspaces.');
  }
  const { store, ledger, environment } = await rt.context();
  const workspace = await readWorkspace(workspaceId);
  const id = jobId ?? randomUUID();
  const guard = await rt.sharing.correctionGuard();
  rt.events.emit('job.status', { jobId: id, kind: 'corrections', status: 'running' });
  try {
    const results = await correctFromWorkspace(
      rt.client,
      store,
      workspace,
      replacementsInUploads(ledger, environment),
      rt.at,
      (done, total) =>
        rt.events.emit('job.progress', {
          jobId: id,
          kind: 'corrections',
          stage: 'sending',
          done,
          total,
          message: `${done} of ${count(total, 'correction')} sent`,
        }),
      guard,
    );
    rt.events.emit('job.status', { jobId: id, kind: 'corrections', status: 'succeeded' });
    const sentAt = rt.at();
    for (const r of results) {
      if (r.outcome === 'replaced' && r.replacementId) {
        await rt.sharing.publishOne(
          r.replacementId,
          'replaces',
          store.get(r.replacementId)?.firstSeenAt ?? sentAt,
        );
      }
    }
    return { results };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    rt.events.emit('job.status', { jobId: id, kind: 'corrections', status: 'failed', message });
    throw e;
  }
}
