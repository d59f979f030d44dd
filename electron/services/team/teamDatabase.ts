import { hostname } from 'node:os';
import pg from 'pg';
import type { AuditEntry, AuditFilter } from '../../../shared/contract/auditChannels';
import { DeskFailure } from '../../../shared/result';
import { auditConditions, type NewAuditEntry } from '../audit/auditStore';

/** PostgreSQL's numbered parameters. */
const pgPlaceholder = (n: number): string => `$${n}`;
import { describeServer, passwordOf, teamFailure } from './teamErrors';
import { teamSchemaVersion } from './teamInit';
import { TEAM_AUDIT_ORIGIN, TEAM_ROLES, TEAM_SCHEMA_VERSION } from './teamSchema';
import type {
  CorrectionHolder,
  CorrectionWay,
  CurrencyTotal,
  NewTeamBulk,
  NewTeamUpload,
  SentElsewhere,
  TeamBulk,
  TeamDismissal,
  TeamOneByOne,
  TeamAudit,
  TeamDatabase,
  TeamRole,
  TeamApprovalPolicy,
  TeamSender,
  TeamUpload,
  TeamUploadFile,
  TeamUploadState,
  TeamWho,
} from './teamTypes';

export interface PgTeamDatabaseOptions {
  /** postgres://login:password@host:port/database */
  url: string;
  /** This computer's name, recorded with claims, decisions and leases. */
  computer?: string;
  /** Connections kept open (default 3: the app is one person). */
  poolSize?: number;
  /** How long to wait for a connection (default 5 s). */
  connectTimeoutMs?: number;
  /** The longest a statement may run (default 15 s). */
  statementTimeoutMs?: number;
}

interface DismissalRow {
  donation_id: string;
  reason: string;
  dismissed_by: string;
  computer: string;
  dismissed_at: Date;
}

const toDismissal = (r: DismissalRow): TeamDismissal => ({
  donationId: r.donation_id,
  reason: r.reason,
  by: r.dismissed_by,
  computer: r.computer,
  at: r.dismissed_at.toISOString(),
});

interface SentBulkRow {
  environment_key: string;
  bulk_id: string;
  upload_id: string;
  part: number;
  upload_created_at: Date;
  part_totals: CurrencyTotal[];
  state: TeamBulk['state'];
  taken_totals: CurrencyTotal[] | null;
  sent_by: string;
  computer: string;
  updated_at: Date;
  workspace_name: string;
}

const toTeamBulk = (r: SentBulkRow): TeamBulk => ({
  environmentKey: r.environment_key,
  bulkId: r.bulk_id,
  uploadId: r.upload_id,
  part: r.part,
  uploadCreatedAt: r.upload_created_at.toISOString(),
  partTotals: r.part_totals,
  state: r.state,
  takenTotals: r.taken_totals,
  workspaceName: r.workspace_name,
  sentBy: r.sent_by,
  computer: r.computer,
  updatedAt: r.updated_at.toISOString(),
});

interface UploadRow {
  id: string;
  workspace_name: string;
  environment: string;
  environment_key: string;
  computer: string;
  file_sha256: string;
  rows: number;
  totals: CurrencyTotal[];
  review: NewTeamUpload['review'];
  preparer: string;
  state: TeamUploadState;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
  sent_by: string | null;
  sent_at: Date | null;
  sender: TeamSender;
  sent_from: string | null;
}

interface ClaimRow {
  fingerprint: string;
  upload_id: string;
  claimed_by: string;
  computer: string;
  claimed_at: Date;
}

interface CorrectionRow {
  donation_id: string;
  claimed_by: string;
  computer: string;
  claimed_at: Date;
  how: CorrectionHolder['how'];
  upload_id: string | null;
  replacement_id: string | null;
  state: CorrectionHolder['state'];
}

function toHolder(row: CorrectionRow): CorrectionHolder {
  return {
    donationId: row.donation_id,
    by: row.claimed_by,
    computer: row.computer,
    since: row.claimed_at.toISOString(),
    how: row.how,
    uploadId: row.upload_id,
    state: row.state,
    replacementId: row.replacement_id,
  };
}

interface AuditRow {
  seq: string;
  at: Date;
  person: string;
  computer: string;
  environment: string;
  action: string;
  workspace_id: string | null;
  upload_id: string | null;
  donation_id: string | null;
  details: Record<string, unknown>;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function toUpload(row: UploadRow): TeamUpload {
  return {
    id: row.id,
    workspaceName: row.workspace_name,
    environment: row.environment,
    environmentKey: row.environment_key,
    computer: row.computer,
    fileSha256: row.file_sha256,
    rows: row.rows,
    totals: row.totals,
    review: row.review,
    preparer: row.preparer,
    state: row.state,
    createdAt: row.created_at.toISOString(),
    decidedBy: row.decided_by,
    decidedAt: iso(row.decided_at),
    reason: row.reason,
    sentBy: row.sent_by,
    sentAt: iso(row.sent_at),
    sender: row.sender ?? 'preparer',
    sentFrom: row.sent_from ?? null,
  };
}

function toSentElsewhere(row: ClaimRow): SentElsewhere {
  return {
    fingerprint: row.fingerprint,
    uploadId: row.upload_id,
    sentBy: row.claimed_by,
    computer: row.computer,
    at: row.claimed_at.toISOString(),
  };
}

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    seq: Number(row.seq),
    at: row.at.toISOString(),
    person: row.person,
    computer: row.computer,
    environment: row.environment,
    action: row.action,
    workspaceId: row.workspace_id,
    uploadId: row.upload_id,
    donationId: row.donation_id,
    details: row.details,
  };
}

const AUDIT_COLUMNS =
  'seq, at, person, computer, environment, action, workspace_id, upload_id, donation_id, details';
/** Rows sent to the server per INSERT when pushing the local trail. */
const PUSH_BATCH = 500;

/**
 * The team database over a small `pg` pool. Every refusal comes from the server (roles, grants,
 * triggers, the desk.* functions) and is answered as a DeskFailure in plain words; this class only
 * shapes what goes in and out.
 */
export class PgTeamDatabase implements TeamDatabase {
  readonly server: string;
  readonly audit: TeamAudit;
  private readonly pool: pg.Pool;
  private readonly computer: string;
  private readonly password: string | null;
  private ready: Promise<void> | null = null;

  constructor(options: PgTeamDatabaseOptions) {
    this.server = describeServer(options.url);
    this.password = passwordOf(options.url);
    this.computer = options.computer ?? hostname();
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 3,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
      query_timeout: (options.statementTimeoutMs ?? 15_000) + 5_000,
      application_name: 'Donation Desk',
    });
    // A connection dropped while idle (server restart, network) is not a crash: the next call reconnects.
    this.pool.on('error', () => undefined);
    this.audit = {
      push: (origin, entries) => this.pushAudit(origin, entries),
      list: (filter, before, limit) => this.listAudit(filter, before, limit),
      all: (filter) => this.allAudit(filter),
    };
  }

  private failure(e: unknown): DeskFailure {
    return teamFailure(e, this.server, this.password);
  }

  /** Runs one statement as it is, for who() and schemaVersion() (which work before set-up). */
  private async raw<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw this.failure(e);
    }
  }

  /** Once per connection set: the schema is there and not older than this app needs. */
  private async checkSchema(): Promise<void> {
    const version = await this.schemaVersion();
    if (version === 0 || version === null) {
      throw new DeskFailure(
        'TEAM_NOT_SET_UP',
        `The team database at ${this.server} is not set up for Donation Desk yet: the team's admin runs donation-desk db init-team.`,
      );
    }
    if (version < TEAM_SCHEMA_VERSION) {
      throw new DeskFailure(
        'TEAM_SCHEMA_OLD',
        `The team database at ${this.server} is at schema version ${version}; this Donation Desk needs ${TEAM_SCHEMA_VERSION}: the team's admin runs donation-desk db init-team to bring it up to date.`,
      );
    }
  }

  private async checked(): Promise<void> {
    if (!this.ready) {
      this.ready = this.checkSchema();
      this.ready.catch(() => {
        this.ready = null;
      });
    }
    await this.ready;
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    await this.checked();
    return this.raw<R>(sql, params);
  }

  /**
   * 0 when the database has no desk schema; null when `desk` is not Donation Desk's; refused when
   * the login holds no desk role.
   */
  async schemaVersion(): Promise<number | null> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.failure(e);
    }
    try {
      return await teamSchemaVersion(client);
    } catch (e) {
      // A login without a desk role may not even look into the schema.
      if ((e as { code?: string }).code === '42501') {
        throw new DeskFailure(
          'TEAM_REFUSED',
          `Your login holds no desk role on the team database at ${this.server}: ask the team's admin to grant you desk_preparer (or desk_approver).`,
          { sqlstate: '42501' },
        );
      }
      throw this.failure(e);
    } finally {
      client.release();
    }
  }

  async who(): Promise<TeamWho> {
    const rows = await this.raw<{ login: string; roles: string[] }>(
      `SELECT session_user AS login, ARRAY(
         SELECT rolname::text FROM pg_catalog.pg_roles
         WHERE rolname = ANY ($1::text[]) AND pg_catalog.pg_has_role(session_user, oid, 'MEMBER')
         ORDER BY array_position($1::text[], rolname::text)) AS roles`,
      [TEAM_ROLES],
    );
    return { login: rows[0]!.login, roles: rows[0]!.roles as TeamRole[], server: this.server };
  }

  async rule(): Promise<TeamApprovalPolicy> {
    const rows = await this.query<{
      approval: TeamApprovalPolicy['approval'];
      thresholds: Record<string, number>;
      sender: TeamSender;
    }>('SELECT approval, thresholds, sender FROM desk.team_rule WHERE id');
    return rows[0] ?? { approval: 'always', thresholds: {}, sender: 'preparer' };
  }

  async setRule(rule: TeamApprovalPolicy): Promise<void> {
    try {
      if (rule.sender) {
        await this.query('UPDATE desk.team_rule SET approval = $1, thresholds = $2, sender = $3 WHERE id', [
          rule.approval,
          JSON.stringify(rule.thresholds),
          rule.sender,
        ]);
      } else {
        await this.query('UPDATE desk.team_rule SET approval = $1, thresholds = $2 WHERE id', [
          rule.approval,
          JSON.stringify(rule.thresholds),
        ]);
      }
    } catch (e) {
      if (sqlstateOf(e) === '42501') {
        throw new DeskFailure(
          'TEAM_REFUSED',
          "Only a desk admin may change the team's approval rule.",
          (e as DeskFailure).details,
        );
      }
      if (sqlstateOf(e) === '23514') {
        throw new DeskFailure(
          'INVALID_INPUT',
          'Each threshold is a three-letter currency code with a whole, non-negative amount in minor units.',
        );
      }
      throw e;
    }
  }

  async needsApproval(totals: readonly CurrencyTotal[]): Promise<boolean> {
    const rows = await this.query<{ needs: boolean }>('SELECT desk.needs_approval($1::jsonb) AS needs', [
      JSON.stringify(totals),
    ]);
    return rows[0]?.needs ?? true;
  }

  async claimRows(
    uploadId: string,
    environmentKey: string,
    fingerprints: readonly string[],
    confirmed?: ReadonlySet<string> | 'all',
  ): Promise<SentElsewhere[]> {
    const rows = await this.query<ClaimRow>('SELECT * FROM desk.claim_rows($1, $2, $3, $4, $5, $6)', [
      uploadId,
      environmentKey,
      [...fingerprints],
      confirmed === 'all' || !confirmed ? [] : [...confirmed],
      confirmed === 'all',
      this.computer,
    ]);
    return rows.map(toSentElsewhere);
  }

  async sentElsewhere(
    environmentKey: string,
    fingerprints: readonly string[],
    exceptUpload?: string,
  ): Promise<Map<string, SentElsewhere>> {
    const rows = await this.query<ClaimRow>(
      // One index probe per row asked about (see desk.claim_rows).
      `SELECT c.fingerprint, c.upload_id, c.claimed_by, c.computer, c.claimed_at
       FROM (SELECT DISTINCT f FROM unnest($2::text[]) AS f) wanted
       CROSS JOIN LATERAL (
         SELECT s.fingerprint, s.upload_id, s.claimed_by, s.computer, s.claimed_at
         FROM desk.sent_row s
         WHERE s.environment_key = $1 AND s.fingerprint = wanted.f AND s.released_at IS NULL
           AND ($3::text IS NULL OR s.upload_id <> $3)
         ORDER BY s.claimed_at LIMIT 1) c`,
      [environmentKey, [...fingerprints], exceptUpload ?? null],
    );
    return new Map(rows.map((r) => [r.fingerprint, toSentElsewhere(r)]));
  }

  async submit(upload: NewTeamUpload): Promise<TeamUpload> {
    try {
      const rows = await this.query<UploadRow>(
        `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [
          upload.id,
          upload.workspaceName,
          upload.environment,
          upload.environmentKey,
          upload.computer,
          upload.fileSha256,
          upload.rows,
          JSON.stringify(upload.totals),
          JSON.stringify(upload.review),
        ],
      );
      return toUpload(rows[0]!);
    } catch (e) {
      if (sqlstateOf(e) === '23505') {
        throw new DeskFailure('TEAM_REFUSED', `Upload ${upload.id} was already submitted to the team.`);
      }
      if (sqlstateOf(e) === '42501') {
        throw new DeskFailure('TEAM_REFUSED', 'Only a person with the preparer role may submit uploads.');
      }
      throw e;
    }
  }

  private async one(sql: string, params: unknown[]): Promise<TeamUpload | null> {
    const rows = await this.query<UploadRow>(sql, params);
    const row = rows[0];
    return row && row.id !== null ? toUpload(row) : null;
  }

  async decide(
    uploadId: string,
    decision: 'approve' | 'reject',
    fileSha256: string,
    reason: string | null,
  ): Promise<TeamUpload> {
    try {
      const decided = await this.one('SELECT * FROM desk.decide($1, $2, $3, $4, $5)', [
        uploadId,
        decision,
        fileSha256,
        reason,
        this.computer,
      ]);
      return decided!;
    } catch (e) {
      // Only approvers may even call desk.decide: the grant refuses the others before the function does.
      if (sqlstateOf(e) === '42501') {
        throw new DeskFailure(
          'TEAM_REFUSED',
          'Only a person with the approver role may approve or reject uploads.',
          (e as DeskFailure).details,
        );
      }
      throw e;
    }
  }

  voidUpload(uploadId: string, reason: string): Promise<TeamUpload | null> {
    return this.one('SELECT * FROM desk.void_upload($1, $2, $3)', [uploadId, reason, this.computer]);
  }

  async markSent(uploadId: string, fileSha256: string): Promise<TeamUpload> {
    const sent = await this.one('SELECT * FROM desk.mark_sent($1, $2, $3)', [
      uploadId,
      fileSha256,
      this.computer,
    ]);
    return sent!;
  }

  async storeUploadFile(uploadId: string, part: number, bytes: Uint8Array): Promise<string> {
    const rows = await this.query<{ sha256: string }>('SELECT desk.store_upload_file($1, $2, $3) AS sha256', [
      uploadId,
      part,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    ]);
    return rows[0]!.sha256;
  }

  async fetchUploadFile(uploadId: string): Promise<TeamUploadFile[]> {
    try {
      const rows = await this.query<{ part: number; bytes: Buffer; sha256: string }>(
        'SELECT part, bytes, sha256 FROM desk.fetch_upload_file($1, NULL)',
        [uploadId],
      );
      return rows.map((r) => ({ part: r.part, bytes: r.bytes, sha256: r.sha256 }));
    } catch (e) {
      if (sqlstateOf(e) === '42501') {
        throw new DeskFailure(
          'TEAM_REFUSED',
          'Only the approver who approved an upload may fetch its file to send it.',
          (e as DeskFailure).details,
        );
      }
      throw e;
    }
  }

  async uploadsToSend(): Promise<TeamUpload[]> {
    const rows = await this.query<UploadRow>(
      `SELECT * FROM desk.upload
       WHERE sender = 'approver' AND decided_by = session_user AND state = 'approved'
       ORDER BY decided_at, id`,
    );
    return rows.map(toUpload);
  }

  async uploadBulks(uploadId: string): Promise<TeamBulk[]> {
    const rows = await this.query<SentBulkRow>(
      `SELECT b.*, u.workspace_name FROM desk.sent_bulk b JOIN desk.upload u ON u.id = b.upload_id
       WHERE b.upload_id = $1 ORDER BY b.part, b.recorded_at`,
      [uploadId],
    );
    return rows.map(toTeamBulk);
  }

  async releaseRows(uploadId: string, fingerprints: readonly string[]): Promise<number> {
    const rows = await this.query<{ released: number }>('SELECT desk.release_rows($1, $2, $3) AS released', [
      uploadId,
      [...fingerprints],
      this.computer,
    ]);
    return rows[0]?.released ?? 0;
  }

  upload(uploadId: string): Promise<TeamUpload | null> {
    return this.one('SELECT * FROM desk.upload WHERE id = $1', [uploadId]);
  }

  async uploads(filter: { state?: TeamUploadState } = {}): Promise<TeamUpload[]> {
    const rows = await this.query<UploadRow>(
      'SELECT * FROM desk.upload WHERE ($1::text IS NULL OR state = $1) ORDER BY created_at DESC, id',
      [filter.state ?? null],
    );
    return rows.map(toUpload);
  }

  async monthTotals(environment: string, month: string): Promise<CurrencyTotal[]> {
    const rows = await this.query<{ currency_code: string; amount: string; count: string }>(
      `SELECT t->>'currencyCode' AS currency_code, sum((t->>'amount')::bigint) AS amount,
              sum((t->>'count')::bigint) AS count
       FROM desk.upload u, jsonb_array_elements(u.totals) t
       WHERE u.state = 'sent' AND u.environment = $1 AND u.review->>'month' = $2
       GROUP BY 1 ORDER BY 1`,
      [environment, month],
    );
    return rows.map((r) => ({
      currencyCode: r.currency_code,
      amount: Number(r.amount),
      count: Number(r.count),
    }));
  }

  async lease(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const rows = await this.query<{ holder: string }>(
      `INSERT INTO desk.follow_lease AS l (key, holder, computer, until)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, computer = EXCLUDED.computer,
         login = session_user, until = EXCLUDED.until
       WHERE l.holder = EXCLUDED.holder OR l.until < now()
       RETURNING holder`,
      [key, holder, this.computer, Math.max(0, Math.round(ttlMs))],
    );
    return rows.length === 1;
  }

  async releaseLease(key: string, holder: string): Promise<void> {
    await this.query('DELETE FROM desk.follow_lease WHERE key = $1 AND holder = $2', [key, holder]);
  }

  async claimCorrection(
    environmentKey: string,
    donationId: string,
    way: CorrectionWay,
  ): Promise<{ granted: boolean; holder: CorrectionHolder }> {
    try {
      const rows = await this.query<CorrectionRow & { granted: boolean }>(
        'SELECT * FROM desk.claim_correction($1, $2, $3, $4, $5)',
        [environmentKey, donationId, way.how, way.how === 'upload' ? way.uploadId : null, this.computer],
      );
      const row = rows[0]!;
      return { granted: row.granted, holder: toHolder(row) };
    } catch (e) {
      if (sqlstateOf(e) === '42501') {
        throw new DeskFailure(
          'TEAM_REFUSED',
          'Only a person with the preparer role may correct declined donations.',
          (e as DeskFailure).details,
        );
      }
      throw e;
    }
  }

  async finishCorrection(
    environmentKey: string,
    donationId: string,
    replacementId: string,
  ): Promise<CorrectionHolder> {
    const rows = await this.query<CorrectionRow>('SELECT * FROM desk.finish_correction($1, $2, $3, $4)', [
      environmentKey,
      donationId,
      replacementId,
      this.computer,
    ]);
    return toHolder(rows[0]!);
  }

  async abandonCorrection(environmentKey: string, donationId: string): Promise<CorrectionHolder> {
    const rows = await this.query<CorrectionRow>('SELECT * FROM desk.abandon_correction($1, $2, $3)', [
      environmentKey,
      donationId,
      this.computer,
    ]);
    return toHolder(rows[0]!);
  }

  async uploadCorrections(
    uploadIds: readonly string[],
  ): Promise<Array<{ uploadId: string; donationId: string }>> {
    if (uploadIds.length === 0) return [];
    const rows = await this.query<{ upload_id: string; donation_id: string }>(
      `SELECT upload_id, donation_id FROM desk.correction
       WHERE upload_id = ANY ($1::text[]) AND how = 'upload' AND state = 'in-progress'
         AND claimed_by = session_user
       ORDER BY upload_id, donation_id`,
      [[...uploadIds]],
    );
    return rows.map((r) => ({ uploadId: r.upload_id, donationId: r.donation_id }));
  }

  async giveBackUploadCorrections(uploadId: string, donationIds: readonly string[]): Promise<string[]> {
    if (donationIds.length === 0) return [];
    await this.checked();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.failure(e);
    }
    const held = `SELECT environment_key FROM desk.correction
      WHERE upload_id = $1 AND donation_id = $2 AND how = 'upload' AND state = 'in-progress'
        AND claimed_by = session_user AND ($3::text IS NULL OR environment_key = $3)`;
    const given: string[] = [];
    try {
      await client.query('BEGIN');
      for (const donationId of [...new Set(donationIds)].sort()) {
        const found = await client.query<{ environment_key: string }>(held, [uploadId, donationId, null]);
        for (const { environment_key: key } of found.rows) {
          // The lock desk.claim_correction takes: no claim can move this one between the look and the
          // give-back (a resend or a correction on its own claims it for itself, and is left alone).
          await client.query(
            "SELECT pg_advisory_xact_lock(hashtextextended('desk.correction ' || $1::text || ' ' || $2::text, 0))",
            [key, donationId],
          );
          const still = await client.query(held, [uploadId, donationId, key]);
          if (still.rowCount === 0) continue;
          await client.query('SELECT desk.abandon_correction($1, $2, $3)', [key, donationId, this.computer]);
          given.push(donationId);
        }
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.failure(e);
    } finally {
      client.release();
    }
    return given;
  }

  async correctionsInProgress(environmentKey: string): Promise<CorrectionHolder[]> {
    const rows = await this.query<CorrectionRow>(
      `SELECT * FROM desk.correction WHERE environment_key = $1 AND state = 'in-progress'
       ORDER BY claimed_at, donation_id`,
      [environmentKey],
    );
    return rows.map(toHolder);
  }

  async corrections(
    environmentKey: string,
    donationIds: readonly string[],
  ): Promise<Map<string, CorrectionHolder>> {
    if (donationIds.length === 0) return new Map();
    const rows = await this.query<CorrectionRow>(
      `SELECT * FROM desk.correction
       WHERE environment_key = $1 AND donation_id = ANY ($2::text[]) AND state <> 'abandoned'
         AND NOT (claimed_by = session_user AND computer = $3)`,
      [environmentKey, [...donationIds], this.computer],
    );
    return new Map(rows.map((r) => [r.donation_id, toHolder(r)]));
  }

  async publishBulk(bulk: NewTeamBulk): Promise<void> {
    await this.query(`SELECT desk.publish_bulk($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb, $9)`, [
      bulk.environmentKey,
      bulk.bulkId,
      bulk.uploadId,
      bulk.part,
      bulk.uploadCreatedAt,
      JSON.stringify(bulk.partTotals),
      bulk.state,
      bulk.takenTotals === null ? null : JSON.stringify(bulk.takenTotals),
      this.computer,
    ]);
  }

  async teamBulks(environmentKey: string): Promise<TeamBulk[]> {
    const rows = await this.query<SentBulkRow>(
      `SELECT b.*, u.workspace_name FROM desk.sent_bulk b JOIN desk.upload u ON u.id = b.upload_id
       WHERE b.environment_key = $1 ORDER BY b.upload_created_at, b.upload_id, b.part`,
      [environmentKey],
    );
    return rows.map(toTeamBulk);
  }

  async publishOne(
    environmentKey: string,
    donationId: string,
    kind: TeamOneByOne['kind'],
    sentAt: string,
  ): Promise<void> {
    await this.query('SELECT desk.publish_one($1, $2, $3, $4, $5)', [
      environmentKey,
      donationId,
      kind,
      sentAt,
      this.computer,
    ]);
  }

  async sentOneByOne(environmentKey: string): Promise<TeamOneByOne[]> {
    const rows = await this.query<{
      donation_id: string;
      kind: TeamOneByOne['kind'];
      sent_at: Date;
      sent_by: string;
      computer: string;
    }>(
      `SELECT donation_id, kind, sent_at, sent_by, computer FROM desk.sent_one
       WHERE environment_key = $1 ORDER BY sent_at, donation_id`,
      [environmentKey],
    );
    return rows.map((r) => ({
      donationId: r.donation_id,
      kind: r.kind,
      sentAt: r.sent_at.toISOString(),
      sentBy: r.sent_by,
      computer: r.computer,
    }));
  }

  async dismiss(environmentKey: string, donationId: string, reason: string): Promise<TeamDismissal> {
    const rows = await this.query<DismissalRow>('SELECT * FROM desk.dismiss($1, $2, $3, $4)', [
      environmentKey,
      donationId,
      reason,
      this.computer,
    ]);
    return toDismissal(rows[0] as DismissalRow);
  }

  async dismissals(
    environmentKey: string,
    donationIds: readonly string[],
  ): Promise<Map<string, TeamDismissal>> {
    if (donationIds.length === 0) return new Map();
    const rows = await this.query<DismissalRow>(
      'SELECT * FROM desk.dismissal WHERE environment_key = $1 AND donation_id = ANY ($2::text[])',
      [environmentKey, [...donationIds]],
    );
    return new Map(rows.map((r) => [r.donation_id, toDismissal(r)]));
  }

  private async pushAudit(
    origin: string,
    entries: Array<NewAuditEntry & { originSeq: number }>,
  ): Promise<number> {
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
      const rows = await this.query<{ seq: string }>(
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

  private async listAudit(filter: AuditFilter, before?: number, limit = 50) {
    const { where, params } = auditConditions(filter, before, pgPlaceholder);
    const rows = await this.query<AuditRow>(
      `SELECT ${AUDIT_COLUMNS} FROM desk.audit ${where} ORDER BY seq DESC LIMIT $${params.length + 1}`,
      [...params, limit + 1],
    );
    const more = rows.length > limit;
    const entries = rows.slice(0, limit).map(toAuditEntry);
    const counted = auditConditions(filter, undefined, pgPlaceholder);
    const total = await this.query<{ n: string }>(
      `SELECT count(*) AS n FROM desk.audit ${counted.where}`,
      counted.params,
    );
    const people = await this.query<{ person: string }>(
      'SELECT DISTINCT person FROM desk.audit ORDER BY person',
    );
    return {
      entries,
      total: Number(total[0]?.n ?? 0),
      nextBefore: more ? (entries.at(-1)?.seq ?? null) : null,
      people: people.map((p) => p.person),
    };
  }

  private async allAudit(filter: AuditFilter): Promise<AuditEntry[]> {
    const { where, params } = auditConditions(filter, undefined, pgPlaceholder);
    const rows = await this.query<AuditRow>(
      `SELECT ${AUDIT_COLUMNS} FROM desk.audit ${where} ORDER BY seq DESC`,
      params,
    );
    return rows.map(toAuditEntry);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

function sqlstateOf(e: unknown): string | undefined {
  return e instanceof DeskFailure ? (e.details as { sqlstate?: string } | undefined)?.sqlstate : undefined;
}
