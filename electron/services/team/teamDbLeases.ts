import type { TeamDbPool } from './teamDbPool';

/** Follow leases: one computer at a time follows an upload, holding the lease for a while. */
export class TeamDbLeases {
  constructor(private readonly db: TeamDbPool) {}

  async lease(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query<{ holder: string }>(
      `INSERT INTO desk.follow_lease AS l (key, holder, computer, until)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, computer = EXCLUDED.computer,
         login = session_user, until = EXCLUDED.until
       WHERE l.holder = EXCLUDED.holder OR l.until < now()
       RETURNING holder`,
      [key, holder, this.db.computer, Math.max(0, Math.round(ttlMs))],
    );
    return rows.length === 1;
  }

  async releaseLease(key: string, holder: string): Promise<void> {
    await this.db.query('DELETE FROM desk.follow_lease WHERE key = $1 AND holder = $2', [key, holder]);
  }
}
