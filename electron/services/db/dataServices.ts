import { join } from 'node:path';
import type { Handler } from '../../../shared/contract';
import type { PlatformAdapter } from '../core/platform';
import { BACKUP_FOLDER, databaseOf, restoreAdvice } from './deskDatabase';

/** Settings → Data: the database check and a backup, as `db check` and `db backup` do. */
export function createDataServices(platform: Pick<PlatformAdapter, 'dataDir' | 'chooseSaveFile'>): {
  handlers: { 'data.check': Handler<'data.check'>; 'data.backup': Handler<'data.backup'> };
} {
  return {
    handlers: {
      // A database that cannot be opened fails here with its name and the backup to restore.
      'data.check': () => {
        const result = databaseOf(platform.dataDir).check();
        return {
          ok: result.ok,
          path: result.path,
          schemaVersion: result.schemaVersion,
          bytes: result.bytes,
          problems: result.ok ? [] : result.problems.slice(0, 20),
          advice: result.ok ? null : restoreAdvice(platform.dataDir),
        };
      },
      'data.backup': async () => {
        const db = databaseOf(platform.dataDir);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const defaultName = `desk-${stamp}.db`;
        const out = platform.chooseSaveFile
          ? await platform.chooseSaveFile({
              title: 'Back up the Donation Desk database',
              defaultName,
              extension: 'db',
            })
          : join(platform.dataDir, BACKUP_FOLDER, defaultName);
        if (out === null) return { written: false as const };
        const written = await db.backup(out);
        return { written: true as const, ...written };
      },
    },
  };
}
