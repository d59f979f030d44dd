import { DeskFailure } from '../../../shared/result';
import type {
  CurrencyTotal,
  NewTeamUpload,
  SentElsewhere,
  TeamApprovalPolicy,
  TeamSender,
  TeamUpload,
  TeamUploadFile,
  TeamUploadState,
} from './teamTypes';
import { sqlstateOf, type TeamDbPool } from './teamDbPool';
import { type UploadRow, type ClaimRow, toUpload, toSentElsewhere } from './teamDbRows';

/** Uploads and their approval: the team's approval policy, row claims, submissions, decisions, stored files. */
export class TeamDbUploads {
  constructor(private readonly db: TeamDbPool) {}

  async rule(): Promise<TeamApprovalPolicy> {
    const rows = await this.db.query<{
      approval: TeamApprovalPolicy['approval'];
      thresholds: Record<string, number>;
      sender: TeamSender;
    }>('SELECT approval, thresholds, sender FROM desk.team_rule WHERE id');
    return rows[0] ?? { approval: 'always', thresholds: {}, sender: 'preparer' };
  }

  async setRule(rule: TeamApprovalPolicy): Promise<void> {
    try {
      if (rule.sender) {
        await this.db.query(
          'UPDATE desk.team_rule SET approval = $1, thresholds = $2, sender = $3 WHERE id',
          [rule.approval, JSON.stringify(rule.thresholds), rule.sender],
        );
      } else {
        await this.db.query('UPDATE desk.team_rule SET approval = $1, thresholds = $2 WHERE id', [
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
    const rows = await this.db.query<{ needs: boolean }>('SELECT desk.needs_approval($1::jsonb) AS needs', [
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
    const rows = await this.db.query<ClaimRow>('SELECT * FROM desk.claim_rows($1, $2, $3, $4, $5, $6)', [
      uploadId,
      environmentKey,
      [...fingerprints],
      confirmed === 'all' || !confirmed ? [] : [...confirmed],
      confirmed === 'all',
      this.db.computer,
    ]);
    return rows.map(toSentElsewhere);
  }

  async sentElsewhere(
    environmentKey: string,
    fingerprints: readonly string[],
    exceptUpload?: string,
  ): Promise<Map<string, SentElsewhere>> {
    const rows = await this.db.query<ClaimRow>(
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

  async releaseRows(uploadId: string, fingerprints: readonly string[]): Promise<number> {
    const rows = await this.db.query<{ released: number }>(
      'SELECT desk.release_rows($1, $2, $3) AS released',
      [uploadId, [...fingerprints], this.db.computer],
    );
    return rows[0]?.released ?? 0;
  }

  async submit(upload: NewTeamUpload): Promise<TeamUpload> {
    try {
      const rows = await this.db.query<UploadRow>(
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
    const rows = await this.db.query<UploadRow>(sql, params);
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
        this.db.computer,
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
    return this.one('SELECT * FROM desk.void_upload($1, $2, $3)', [uploadId, reason, this.db.computer]);
  }

  async markSent(uploadId: string, fileSha256: string): Promise<TeamUpload> {
    const sent = await this.one('SELECT * FROM desk.mark_sent($1, $2, $3)', [
      uploadId,
      fileSha256,
      this.db.computer,
    ]);
    return sent!;
  }

  /**
   * A send marked by this login and computer stopped before any byte reached the service: recorded
   * as not sent with the reason, the upload ends void and its rows are given back (once).
   */
  async unmarkSent(uploadId: string, reason: string): Promise<TeamUpload> {
    const back = await this.one('SELECT * FROM desk.unmark_sent($1, $2, $3)', [
      uploadId,
      reason,
      this.db.computer,
    ]);
    return back!;
  }

  async storeUploadFile(uploadId: string, part: number, bytes: Uint8Array): Promise<string> {
    const rows = await this.db.query<{ sha256: string }>(
      'SELECT desk.store_upload_file($1, $2, $3) AS sha256',
      [uploadId, part, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
    );
    return rows[0]!.sha256;
  }

  async fetchUploadFile(uploadId: string): Promise<TeamUploadFile[]> {
    try {
      const rows = await this.db.query<{ part: number; bytes: Buffer; sha256: string }>(
        'SELECT part, bytes, sha256 FROM desk.fetch_upload_file($1, NULL)',
        [uploadId],
      );
      return rows.map((r) => ({ part: r.part, bytes: r.bytes, sha256: r.sha256 }));
    } catch (e) {
      if (sqlstateOf(e) === '42501') {
        throw new DeskFailure(
          'TEAM_REFUSED',
          'Only the preparer of an upload, an approver or a desk admin may read its file.',
          (e as DeskFailure).details,
        );
      }
      throw e;
    }
  }

  async uploadsToSend(): Promise<TeamUpload[]> {
    const rows = await this.db.query<UploadRow>(
      `SELECT * FROM desk.upload
       WHERE sender = 'approver' AND decided_by = session_user AND state = 'approved'
       ORDER BY decided_at, id`,
    );
    return rows.map(toUpload);
  }

  upload(uploadId: string): Promise<TeamUpload | null> {
    return this.one('SELECT * FROM desk.upload WHERE id = $1', [uploadId]);
  }

  async uploads(filter: { state?: TeamUploadState } = {}): Promise<TeamUpload[]> {
    const rows = await this.db.query<UploadRow>(
      'SELECT * FROM desk.upload WHERE ($1::text IS NULL OR state = $1) ORDER BY created_at DESC, id',
      [filter.state ?? null],
    );
    return rows.map(toUpload);
  }

  async monthTotals(environment: string, month: string): Promise<CurrencyTotal[]> {
    const rows = await this.db.query<{ currency_code: string; amount: string; count: string }>(
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
}
