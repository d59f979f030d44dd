import type { DeskDatabase } from '../db/deskDatabase';
import { entryFields, type AuditRow, type NewAuditEntry } from '../audit/auditStore';
import type { AuditSharing, SharedAuditTrail } from '../audit/auditSharing';
import { DeskFailure } from '../../../shared/result';
import type { TeamDatabase } from './teamTypes';

/** Entries copied per round trip. */
const BATCH = 500;

/**
 * Team mode's audit outbox: every entry is first written to the data folder's own (SQLite) trail,
 * as alone, then copied to the team's trail, where the person is the database login. The copy is
 * idempotent per (origin, seq), so a push that failed half-way or ran twice (the app and a command
 * on the same folder) loses and doubles nothing. What has been copied is remembered per team
 * database in `team_outbox`, never by touching the insert-only audit table. It is how team mode shares
 * the audit trail (audit's AuditSharing), chosen in the services' composition root.
 */
export class TeamAuditOutbox implements AuditSharing {
  private running: Promise<number> | null = null;
  private again = false;

  constructor(
    private readonly db: () => DeskDatabase,
    private readonly team: () => TeamDatabase | null,
    private readonly log: (message: string) => void = (m) => console.error(m),
  ) {}

  /** This data folder's id, made once by the schema: the origin of its entries in the team trail. */
  origin(): string {
    const row = this.db().get<{ id: string }>('SELECT id FROM folder_identity');
    if (!row) throw new Error('The data folder has no id (its database predates version 4).');
    return `folder-${row.id}`;
  }

  /** The last local seq the team database in force has. */
  pushedSeq(server: string): number {
    return Number(
      this.db().get<{ pushed_seq: number }>('SELECT pushed_seq FROM team_outbox WHERE server = ?', server)
        ?.pushed_seq ?? 0,
    );
  }

  /**
   * Copies every entry not yet in the team trail; resolves with how many were copied. Calls made
   * while one runs are folded into one more run after it, so the last entry is always included.
   */
  push(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running.then(() => this.push());
    }
    this.running = this.pushAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The team's trail, with this folder's latest entries copied first (best effort); null alone. */
  async sharedTrail(): Promise<SharedAuditTrail | null> {
    const shared = this.team();
    if (!shared) return null;
    await this.push().catch(() => undefined);
    return shared.audit;
  }

  /**
   * Whether the team's trail is whole: the database recomputes its chain of seals, so an entry
   * changed or removed afterwards (even by a superuser) is named with why. This folder's latest
   * entries are copied first (best effort). Throws TEAM_ALONE without a team database in force.
   */
  async verifyTeamTrail(): Promise<{
    trail: 'team';
    whole: boolean;
    entries: number;
    firstBroken?: { seq: number; at?: string; reason: string };
  }> {
    const team = this.team();
    if (!team)
      throw new DeskFailure('TEAM_ALONE', 'No team database is in force: there is no team trail to check.');
    await this.push().catch(() => undefined);
    return team.audit.verify();
  }

  /** After each local write: copied in the background; a failure waits for the next write or listing. */
  schedule(): void {
    if (!this.team()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.push().catch((e: unknown) =>
      this.log(
        `Audit trail: entries could not be copied to the team database yet (they stay on this computer and go with the next one): ${e instanceof Error ? e.message : String(e)}`,
      ),
    );
  }

  private async pushAll(): Promise<number> {
    let copied = 0;
    do {
      this.again = false;
      const team = this.team();
      if (!team) return copied;
      const origin = this.origin();
      for (;;) {
        const after = this.pushedSeq(team.server);
        const rows = this.db().all<AuditRow>(
          `SELECT seq, at, person, computer, environment, action, workspace_id, upload_id, donation_id, details
           FROM audit WHERE seq > ? ORDER BY seq LIMIT ?`,
          after,
          BATCH,
        );
        if (rows.length === 0) break;
        await team.audit.push(origin, rows.map(toEntry));
        const last = Number((rows.at(-1) as AuditRow).seq);
        this.db().run(
          `INSERT INTO team_outbox (server, pushed_seq) VALUES (?, ?)
           ON CONFLICT (server) DO UPDATE SET pushed_seq = max(pushed_seq, excluded.pushed_seq)`,
          team.server,
          last,
        );
        copied += rows.length;
        if (rows.length < BATCH) break;
      }
    } while (this.again);
    return copied;
  }
}

function toEntry(row: AuditRow): NewAuditEntry & { originSeq: number } {
  return { originSeq: Number(row.seq), ...entryFields(row) };
}
