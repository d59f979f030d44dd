import { auditConditions, type NewAuditEntry } from '../audit/auditStore';
import type { AuditEntry, AuditFilter } from '../../../shared/contract/auditChannels';
import { DeskFailure } from '../../../shared/result';
import { TEAM_AUDIT_ORIGIN } from './teamSchema';
import type { TeamDbPool } from './teamDbPool';
import { type AuditRow, toAuditEntry } from './teamDbRows';
import type { TeamTrailCheck } from './teamTypes';

/** An entry already in the team trail under this computer's origin. */
interface ExistingEntry {
  origin_seq: string;
  person: string;
  action: string;
  computer: string;
  environment: string;
  workspace_id: string | null;
  upload_id: string | null;
  donation_id: string | null;
  details: unknown;
}

interface PushedEntry {
  action: string;
  computer: string;
  environment: string;
  workspace_id: string | null;
  upload_id: string | null;
  donation_id: string | null;
  details: unknown;
  origin_seq: number;
}

/** The same entry as this computer's (its earlier copy): what it says, not when it was copied. */
function sameEntry(k: ExistingEntry, e: PushedEntry): boolean {
  return (
    k.action === e.action &&
    k.computer === e.computer &&
    k.environment === e.environment &&
    (k.workspace_id ?? null) === (e.workspace_id ?? null) &&
    (k.upload_id ?? null) === (e.upload_id ?? null) &&
    (k.donation_id ?? null) === (e.donation_id ?? null) &&
    canonical(k.details) === canonical(e.details)
  );
}

/** JSON with its keys in order, so two equal objects read the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

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
      // Numbers already there are either this computer's own earlier copy (the same content: a
      // push that failed half-way or ran twice) or entries someone else wrote under this origin:
      // those are a conflict, reported and retried, never skipped as copied.
      const known = await this.db.query<ExistingEntry>(
        `SELECT a.origin_seq::text AS origin_seq, a.person, a.action, a.computer, a.environment,
                a.workspace_id, a.upload_id, a.donation_id, a.details
         FROM desk.audit a
         WHERE a.origin = $1 AND a.origin_seq = ANY ($2::bigint[])`,
        [origin, batch.map((e) => e.origin_seq)],
      );
      const there = new Map(known.map((k) => [Number(k.origin_seq), k]));
      const conflicts = batch.filter((e) => {
        const k = there.get(e.origin_seq);
        return k !== undefined && !sameEntry(k, e);
      });
      if (conflicts.length > 0) {
        const first = conflicts[0]!;
        const k = there.get(first.origin_seq)!;
        throw new DeskFailure(
          'TEAM_TRAIL_CONFLICT',
          `The team's audit trail already holds ${conflicts.length === 1 ? 'an entry' : `${conflicts.length} entries`} under this computer's numbers (for example number ${first.origin_seq}, "${k.action}" written by ${k.person}), so this computer's entries from there were not copied. They stay on this computer and are tried again; tell your desk admin.`,
          { origin, originSeqs: conflicts.map((c) => c.origin_seq) },
        );
      }
      const fresh = batch.filter((e) => !there.has(e.origin_seq));
      if (fresh.length === 0) continue;
      const rows = await this.db.query<{ seq: string }>(
        `INSERT INTO desk.audit (at, computer, environment, action, workspace_id, upload_id, donation_id, details, origin, origin_seq)
         SELECT (e->>'at')::timestamptz, e->>'computer', e->>'environment', e->>'action', e->>'workspace_id',
                e->>'upload_id', e->>'donation_id', e->'details', $1, (e->>'origin_seq')::bigint
         FROM jsonb_array_elements($2::jsonb) e
         ORDER BY (e->>'origin_seq')::bigint
         RETURNING seq`,
        [origin, JSON.stringify(fresh)],
      );
      inserted += rows.length;
    }
    return inserted;
  }

  /** Recomputes the chain of seals in the team database (desk.verify_audit). */
  async verifyAudit(): Promise<TeamTrailCheck> {
    const rows = await this.db.query<{
      whole: boolean;
      entries: string;
      first_broken_seq: string | null;
      first_broken_at: Date | null;
      reason: string | null;
    }>('SELECT whole, entries, first_broken_seq, first_broken_at, reason FROM desk.verify_audit()');
    const r = rows[0]!;
    const check: TeamTrailCheck = { trail: 'team', whole: r.whole, entries: Number(r.entries) };
    if (!r.whole) {
      check.firstBroken = {
        seq: Number(r.first_broken_seq ?? 0),
        ...(r.first_broken_at ? { at: new Date(r.first_broken_at).toISOString() } : {}),
        reason: r.reason ?? 'The trail does not match its seals.',
      };
    }
    return check;
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
