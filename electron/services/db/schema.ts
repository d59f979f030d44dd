import v001 from './migrations/V001__ledger_donations_locations.sql?raw';
import v002 from './migrations/V002__audit_trail.sql?raw';
import v003 from './migrations/V003__donation_indexes_and_sums.sql?raw';
import v004 from './migrations/V004__folder_id_and_team_outbox.sql?raw';
import v005 from './migrations/V005__donation_indexes_by_state.sql?raw';
import v006 from './migrations/V006__audit_hash_chain.sql?raw';
import v007 from './migrations/V007__ledger_group_summary.sql?raw';
import { latestVersion, loadMigrations } from './migrationRunner';

/**
 * The data folder database's schema: the files in migrations/, applied in order by
 * sqliteMigrations.ts. Never edit a released file: add the next one (and list it here).
 */
export const SQLITE_MIGRATIONS = loadMigrations([
  { name: 'V001__ledger_donations_locations.sql', text: v001 },
  { name: 'V002__audit_trail.sql', text: v002 },
  { name: 'V003__donation_indexes_and_sums.sql', text: v003 },
  { name: 'V004__folder_id_and_team_outbox.sql', text: v004 },
  { name: 'V005__donation_indexes_by_state.sql', text: v005 },
  { name: 'V006__audit_hash_chain.sql', text: v006 },
  { name: 'V007__ledger_group_summary.sql', text: v007 },
]);

export const SCHEMA_VERSION = latestVersion(SQLITE_MIGRATIONS);
