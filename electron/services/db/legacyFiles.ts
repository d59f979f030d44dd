import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import type { DeskDatabase } from './deskDatabase';

/** The suffix a JSON file of version 0.1 gets once its content is in the database; kept as a backup. */
export const IMPORTED_SUFFIX = '.pre-sqlite';

/**
 * The one-time import of a legacy JSON source, crash-safe and idempotent: `write` puts the rows in
 * and the source's mark is written in the same transaction, so a crash before the commit leaves
 * nothing and the next open imports again, and a source already marked is never imported twice
 * (the database may hold newer rows by then). The files are renamed aside only after the commit; a
 * crash in between leaves them in place, and the next open, seeing the mark, just renames them.
 * Returns whether this call imported the source.
 */
export async function importOnce(
  db: DeskDatabase,
  source: string,
  files: string[],
  read: () => Promise<{ write: () => void; detail: Record<string, unknown> } | null>,
): Promise<boolean> {
  const present = files.filter((f) => existsSync(f));
  if (present.length === 0) return false;
  let imported = false;
  if (!isImported(db, source)) {
    const legacy = await read();
    db.transaction(() => {
      // Checked again under the write lock: another process may have imported it meanwhile.
      if (isImported(db, source)) return;
      legacy?.write();
      db.run(
        'INSERT INTO imported (source, at, detail) VALUES (?, ?, ?)',
        source,
        new Date().toISOString(),
        JSON.stringify({ files: present, ...(legacy?.detail ?? {}) }),
      );
      imported = true;
    });
  }
  for (const file of present) await setAside(file);
  return imported;
}

export function isImported(db: DeskDatabase, source: string): boolean {
  return db.get('SELECT 1 AS one FROM imported WHERE source = ?', source) !== undefined;
}

async function setAside(file: string): Promise<void> {
  let target = `${file}${IMPORTED_SUFFIX}`;
  // Never over an earlier backup (a file written again by version 0.1 after the upgrade).
  if (existsSync(target)) target = `${file}${IMPORTED_SUFFIX}-${Date.now()}`;
  try {
    await rename(file, target);
  } catch (e) {
    // Another process set it aside first.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
