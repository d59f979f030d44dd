import type { ChannelInput, ChannelResponse } from '../../../shared/contract';
import type { AuditEntry, AuditFilter } from '../../../shared/contract/auditChannels';
import { auditCsv, auditWorkbook } from '../../../shared/export/auditSheets';
import { databaseOf } from '../db/deskDatabase';
import type { WorkspaceObserver } from '../workspaces/workspaceStore';
import { AuditStore } from './auditStore';
import { AuditTrail } from './auditTrail';
import { uploadGroupReader } from './auditedServices';
import type { DeskIdentity } from '../core/identity';
import type { TeamDatabase } from '../team/teamTypes';
import { TeamAuditOutbox } from '../team/teamAuditOutbox';

export { AuditStore } from './auditStore';
export { AuditTrail } from './auditTrail';
export { auditedServices } from './auditedServices';

/** The audit trail of a data folder: the trail itself, what feeds it from the workspaces, and its channels. */
export function createAuditServices(options: {
  dataDir: string;
  identity: DeskIdentity;
  environment: () => string;
  /** Team mode: the shared database in force now, or null alone. */
  team?: () => TeamDatabase | null;
}) {
  // Opened when first needed (shared with the other stores of the data folder).
  const db = () => databaseOf(options.dataDir);
  const store = new AuditStore(db);
  const trail = new AuditTrail(store, options.identity, options.environment);
  const team = options.team ?? (() => null);
  const outbox = new TeamAuditOutbox(db, team);
  trail.onWritten(() => outbox.schedule());
  /** Team mode: the team's trail, with this folder's latest entries copied first (best effort). */
  const teamTrail = async () => {
    const shared = team();
    if (!shared) return null;
    await outbox.push().catch(() => undefined);
    return shared;
  };
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
      const shared = await teamTrail();
      if (shared) return shared.audit.list(filter, before, limit);
      return {
        ...store.page(filter, { ...(before ? { before } : {}), ...(limit ? { limit } : {}) }),
        people: store.people(),
      };
    },
    'audit.export': async ({ filter, format }: ChannelInput<'audit.export'>) => {
      const shared = await teamTrail();
      const file = await exportAudit(shared ? await shared.audit.all(filter) : store, filter, format);
      return { fileName: file.fileName, base64: file.bytes.toString('base64'), entries: file.entries };
    },
  };

  return { store, trail, workspaceObserver, uploadGroup, handlers, outbox, teamTrail };
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
