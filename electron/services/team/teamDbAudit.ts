import { auditConditions, type NewAuditEntry } from '../audit/auditStore';
import type { AuditEntry, AuditFilter } from '../../../shared/contract/auditChannels';
import { DeskFailure } from '../../../shared/result';
import { TEAM_AUDIT_ORIGIN } from './teamSchema';
import type { TeamDbPool } from './teamDbPool';
import { type AuditRow, toAuditEntry } from './teamDbRows';

/** PostgreSQL's numbered parameters. */
const pgPlaceholder = (n: number): string => `$${n}`;

const AUDIT_COLUMNS =
  'seq, at, person, computer, environment, action, workspace_id, upload_id, donation_id, details';
/** Rows sent to the server per INSERT when pushing the local trail. */
const PUSH_BATCH = 500;

/** The team's audit trail: pushing this computer's entries, and reading them back. */
export class TeamDbAudit {
  constructor(private readonly db: TeamDbPool) {}

  async pushAudit(origin: string, entries: Array<NewAuditEntry & { originSeq: number }>): Promise<number> {
    if (origin === TEAM_AUDIT_ORIGIN) {
      throw new DeskFailure(
        'INVALID_INPUT',
        `Entries of origin ${TEAM_AUDIT_ORIGIN} are the database's own.`,
      );
    }
    let inserted = 0;
    for (let i = 0; i < entries.length; i += PUSH_BATCH) {
      const batch = entries.slice(i, i + PUSH_BATCH).map((e) => ({
        at: e.at,
        computer: e.computer,
        environment: e.environment,
        action: e.action,
        workspace_id: e.workspaceId ?? null,
        upload_id: e.uploadId ?? null,
        donation_id: e.donationId ?? null,
        details: e.details,
        origin_seq: e.originSeq,
      }));
      const rows = await this.db.query<{ seq: string }>(
        `INSERT INTO desk.audit (at, computer, environment, action, workspace_id, upload_id, donation_id, details, origin, origin_seq)
         SELECT (e->>'at')::timestamptz, e->>'computer', e->>'environment', e->>'action', e->>'workspace_id',
                e->>'upload_id', e->>'donation_id', e->'details', $1, (e->>'origin_seq')::bigint
         FROM jsonb_array_elements($2::jsonb) e
         ON CONFLICT (origin, origin_seq) DO NOTHING
         RETURNING seq`,
        [origin, JSON.stringify(batch)],
      );
      inserted += rows.length;
    }
    return inserted;
  }

  async listAudit(filter: AuditFilter, before?: number, limit = 50) {
    const { where, params } = auditConditions(filter, before, pgPlaceholder);
    const rows = await this.db.query<AuditRow>(
      `SELECT ${AUDIT_COLUMNS} FROM desk.audit ${where} ORDER BY seq DESC LIMIT $${params.length + 1}`,
      [...params, limit + 1],
    );
    const more = rows.length > limit;
    const entries = rows.slice(0, limit).map(toAuditEntry);
    const counted = auditConditions(filter, undefined, pgPlaceholder);
    const total = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM desk.audit ${counted.where}`,
      counted.params,
    );
    const people = await this.db.query<{ person: string }>(
      'SELECT DISTINCT person FROM desk.audit ORDER BY person',
    );
    return {
      entries,
      total: Number(total[0]?.n ?? 0),
      nextBefore: more ? (entries.at(-1)?.seq ?? null) : null,
      people: people.map((p) => p.person),
    };
  }

  async allAudit(filter: AuditFilter): Promise<AuditEntry[]> {
    const { where, params } = auditConditions(filter, undefined, pgPlaceholder);
    const rows = await this.db.query<AuditRow>(
      `SELECT ${AUDIT_COLUMNS} FROM desk.audit ${where} ORDER BY seq DESC`,
      params,
    );
    return rows.map(toAuditEntry);
  }
}
