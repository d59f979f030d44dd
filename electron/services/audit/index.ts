import type { ChannelInput, ChannelResponse } from '../../../shared/contract';
import type { AuditEntry, AuditFilter } from '../../../shared/contract/auditChannels';
import { auditCsv, auditWorkbook } from '../../../shared/export/auditSheets';
import { databaseOf } from '../db/deskDatabase';
import type { WorkspaceObserver } from '../workspaces/workspaceStore';
import { AuditStore } from './auditStore';
import { AuditTrail } from './auditTrail';
import { uploadGroupReader } from './auditedServices';
import type { DeskIdentity } from '../core/identity';
import { notShared, type AuditSharing } from './auditSharing';

export { AuditStore } from './auditStore';
export { AuditTrail } from './auditTrail';
export { auditedServices } from './auditedServices';
export { notShared, type AuditSharing, type SharedAuditTrail, type TrailCheck } from './auditSharing';

/** The audit trail of a data folder: the trail itself, what feeds it from the workspaces, and its channels. */
export function createAuditServices(options: {
  dataDir: string;
  identity: DeskIdentity;
  environment: () => string;
  /** How the trail is shared with colleagues (team mode); nothing is shared by default. */
  sharing?: AuditSharing;
}) {
  // Opened when first needed (shared with the other stores of the data folder).
  const db = () => databaseOf(options.dataDir);
  const store = new AuditStore(db);
  const trail = new AuditTrail(store, options.identity, options.environment);
  const sharing = options.sharing ?? notShared;
  trail.onWritten(() => sharing.schedule());
  const uploadGroup = uploadGroupReader(
    (id) => db().get<{ body: string }>('SELECT body FROM ledger_group WHERE id = ?', id)?.body,
  );

  const workspaceObserver: WorkspaceObserver = {
    created(meta, imported) {
      trail.recordDone(
        'import',
        { workspaceId: meta.id },
        {
          name: meta.name,
          fileName: meta.source.fileName,
          fileBytes: meta.source.fileBytes ?? null,
          sha256: meta.source.sha256 ?? null,
          format: meta.source.format,
          sheet: meta.source.sheet,
          headerRow: meta.source.headerRow,
          rows: imported.rows,
          headers: imported.headers,
          mapping: imported.mapping,
        },
      );
    },
    edited(id, version, changes) {
      const { cells, inserted, deleted, mappingChanged, renamed } = changes;
      if (!cells.length && !inserted.length && !deleted.length && !mappingChanged && !renamed) return;
      trail.recordDone(
        'edit',
        { workspaceId: id },
        {
          version,
          ...(cells.length ? { cells } : {}),
          ...(inserted.length ? { inserted } : {}),
          ...(deleted.length ? { deleted } : {}),
          ...(mappingChanged ? { mappingChanged } : {}),
          ...(renamed ? { renamed } : {}),
        },
      );
    },
    deleted(meta) {
      trail.recordDone(
        'delete-workspace',
        { workspaceId: meta.id },
        { name: meta.name, fileName: meta.source.fileName, counts: meta.counts, state: meta.state },
      );
    },
  };

  const handlers = {
    'audit.list': async ({
      filter,
      before,
      limit,
    }: ChannelInput<'audit.list'>): Promise<ChannelResponse<'audit.list'>> => {
      const shared = await sharing.sharedTrail();
      if (shared) return shared.list(filter, before, limit);
      return {
        ...store.page(filter, { ...(before ? { before } : {}), ...(limit ? { limit } : {}) }),
        people: store.people(),
      };
    },
    'audit.export': async ({ filter, format }: ChannelInput<'audit.export'>) => {
      const shared = await sharing.sharedTrail();
      const file = await exportAudit(shared ? await shared.all(filter) : store, filter, format);
      return { fileName: file.fileName, base64: file.bytes.toString('base64'), entries: file.entries };
    },
    'audit.verify': async (): Promise<ChannelResponse<'audit.verify'>> => {
      const checks = [await store.verify()];
      // The team's trail too while one is in force (its chain is checked by its own database).
      if (sharing.verifyTeamTrail && (await sharing.sharedTrail())) {
        checks.push(await sharing.verifyTeamTrail());
      }
      return checks;
    },
  };

  return { store, trail, workspaceObserver, uploadGroup, handlers };
}

/** The matching entries as an xlsx or CSV file (the Audit view's export and `donation-desk audit`). */
export async function exportAudit(
  source: AuditStore | readonly AuditEntry[],
  filter: AuditFilter,
  format: 'xlsx' | 'csv',
): Promise<{ fileName: string; bytes: Buffer; entries: number }> {
  // The data folder's own trail, or the team's (already read, newest first).
  const entries = Array.isArray(source) ? [...source] : [...(source as AuditStore).all(filter)];
  const stamp = new Date().toISOString().slice(0, 10);
  const fileName = `audit-trail-${stamp}.${format}`;
  if (format === 'csv')
    return { fileName, bytes: Buffer.from(auditCsv(entries), 'utf8'), entries: entries.length };
  const XLSX = await import('xlsx');
  const book = auditWorkbook(XLSX, entries);
  const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  return { fileName, bytes, entries: entries.length };
}
