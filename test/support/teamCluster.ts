import pg from 'pg';
import { initTeamDatabase } from '../../electron/services/team/teamInit';
import { startPgCluster, type PgCluster, type PgClusterOptions } from './pgCluster';

/*
 * A throwaway cluster with the team schema set up (as `db init-team` does) and a login per part:
 * alice prepares, bob approves, carol is the desk admin, dave prepares too, and erin has a login
 * but no desk role at all. Passwords are `<login>-password`.
 */

export const TEAM_LOGINS = {
  alice: ['desk_preparer'],
  bob: ['desk_approver'],
  carol: ['desk_admin'],
  dave: ['desk_preparer'],
  erin: [],
} as const satisfies Record<string, readonly string[]>;
export type TeamLogin = keyof typeof TEAM_LOGINS;

export interface TeamCluster extends PgCluster {
  /** postgres://<login>:<login>-password@127.0.0.1:port/desk (with the TLS parameters on a TLS cluster) */
  urlOf(login: TeamLogin): string;
  /** A connected client as `login`; closed by stop() if still open. */
  connect(login: TeamLogin): Promise<pg.Client>;
  /** A connected client for every login (for raw SQL as each person), closed by stop(). */
  connectEveryone(): Promise<(login: TeamLogin) => pg.Client>;
}

export async function startTeamCluster(options: PgClusterOptions = {}): Promise<TeamCluster> {
  const cluster = await startPgCluster(options);
  const open = new Set<pg.Client>();
  try {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    try {
      await initTeamDatabase(admin);
    } finally {
      await admin.end();
    }
    for (const [login, roles] of Object.entries(TEAM_LOGINS)) {
      await cluster.createLogin(login, `${login}-password`, [...roles]);
    }
    // erin may connect (to prove what the database refuses her), though the desk grants her nothing.
    await cluster.query('GRANT CONNECT ON DATABASE desk TO erin');
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  const urlOf = (login: TeamLogin) => cluster.url(login, `${login}-password`);
  const connect = async (login: TeamLogin): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: urlOf(login) });
    await client.connect();
    open.add(client);
    client.on('end', () => open.delete(client));
    return client;
  };
  return {
    ...cluster,
    urlOf,
    connect,
    async connectEveryone() {
      const clients = new Map<TeamLogin, pg.Client>();
      for (const login of Object.keys(TEAM_LOGINS) as TeamLogin[]) clients.set(login, await connect(login));
      return (login) => clients.get(login) as pg.Client;
    },
    async stop() {
      await Promise.all([...open].map((c) => c.end().catch(() => undefined)));
      await cluster.stop();
    },
  };
}
