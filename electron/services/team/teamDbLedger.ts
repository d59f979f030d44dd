import type pg from 'pg';
import { DeskFailure } from '../../../shared/result';
import type {
  CorrectionHolder,
  CorrectionWay,
  NewTeamBulk,
  TeamBulk,
  TeamDismissal,
  TeamOneByOne,
} from './teamTypes';
import { sqlstateOf, type TeamDbPool } from './teamDbPool';
import {
  type DismissalRow,
  toDismissal,
  type SentBulkRow,
  toTeamBulk,
  type CorrectionRow,
  toHolder,
} from './teamDbRows';

/** The team's shared ledger: sent bulks, donations sent one by one, correction claims, dismissals. */
export class TeamDbLedger {
  constructor(private readonly db: TeamDbPool) {}

  async uploadBulks(uploadId: string): Promise<TeamBulk[]> {
    const rows = await this.db.query<SentBulkRow>(
      `SELECT b.*, u.workspace_name FROM desk.sent_bulk b JOIN desk.upload u ON u.id = b.upload_id
       WHERE b.upload_id = $1 ORDER BY b.part, b.recorded_at`,
      [uploadId],
    );
    return rows.map(toTeamBulk);
  }

  async publishBulk(bulk: NewTeamBulk): Promise<void> {
    await this.db.query(`SELECT desk.publish_bulk($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb, $9)`, [
      bulk.environmentKey,
      bulk.bulkId,
      bulk.uploadId,
      bulk.part,
      bulk.uploadCreatedAt,
      JSON.stringify(bulk.partTotals),
      bulk.state,
      bulk.takenTotals === null ? null : JSON.stringify(bulk.takenTotals),
      this.db.computer,
    ]);
  }

  async teamBulks(environmentKey: string): Promise<TeamBulk[]> {
    const rows = await this.db.query<SentBulkRow>(
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
    await this.db.query('SELECT desk.publish_one($1, $2, $3, $4, $5)', [
      environmentKey,
      donationId,
      kind,
      sentAt,
      this.db.computer,
    ]);
  }

  async sentOneByOne(environmentKey: string): Promise<TeamOneByOne[]> {
    const rows = await this.db.query<{
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

  async claimCorrection(
    environmentKey: string,
    donationId: string,
    way: CorrectionWay,
  ): Promise<{ granted: boolean; holder: CorrectionHolder }> {
    try {
      const rows = await this.db.query<CorrectionRow & { granted: boolean }>(
        'SELECT * FROM desk.claim_correction($1, $2, $3, $4, $5)',
        [environmentKey, donationId, way.how, way.how === 'upload' ? way.uploadId : null, this.db.computer],
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
    const rows = await this.db.query<CorrectionRow>('SELECT * FROM desk.finish_correction($1, $2, $3, $4)', [
      environmentKey,
      donationId,
      replacementId,
      this.db.computer,
    ]);
    return toHolder(rows[0]!);
  }

  async abandonCorrection(environmentKey: string, donationId: string): Promise<CorrectionHolder> {
    const rows = await this.db.query<CorrectionRow>('SELECT * FROM desk.abandon_correction($1, $2, $3)', [
      environmentKey,
      donationId,
      this.db.computer,
    ]);
    return toHolder(rows[0]!);
  }

  async uploadCorrections(
    uploadIds: readonly string[],
  ): Promise<Array<{ uploadId: string; donationId: string }>> {
    if (uploadIds.length === 0) return [];
    const rows = await this.db.query<{ upload_id: string; donation_id: string }>(
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
    await this.db.checked();
    let client: pg.PoolClient;
    try {
      client = await this.db.pool.connect();
    } catch (e) {
      throw this.db.failure(e);
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
          await client.query('SELECT desk.abandon_correction($1, $2, $3)', [
            key,
            donationId,
            this.db.computer,
          ]);
          given.push(donationId);
        }
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.db.failure(e);
    } finally {
      client.release();
    }
    return given;
  }

  async correctionsInProgress(environmentKey: string): Promise<CorrectionHolder[]> {
    const rows = await this.db.query<CorrectionRow>(
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
    const rows = await this.db.query<CorrectionRow>(
      `SELECT * FROM desk.correction
       WHERE environment_key = $1 AND donation_id = ANY ($2::text[]) AND state <> 'abandoned'
         AND NOT (claimed_by = session_user AND computer = $3)`,
      [environmentKey, [...donationIds], this.db.computer],
    );
    return new Map(rows.map((r) => [r.donation_id, toHolder(r)]));
  }

  async dismiss(environmentKey: string, donationId: string, reason: string): Promise<TeamDismissal> {
    const rows = await this.db.query<DismissalRow>('SELECT * FROM desk.dismiss($1, $2, $3, $4)', [
      environmentKey,
      donationId,
      reason,
      this.db.computer,
    ]);
    return toDismissal(rows[0] as DismissalRow);
  }

  async dismissals(
    environmentKey: string,
    donationIds: readonly string[],
  ): Promise<Map<string, TeamDismissal>> {
    if (donationIds.length === 0) return new Map();
    const rows = await this.db.query<DismissalRow>(
      'SELECT * FROM desk.dismissal WHERE environment_key = $1 AND donation_id = ANY ($2::text[])',
      [environmentKey, [...donationIds]],
    );
    return new Map(rows.map((r) => [r.donation_id, toDismissal(r)]));
  }
}
