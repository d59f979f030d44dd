import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import { createDataServices } from './dataServices';
import { closeDatabase, DATABASE_FILE, databaseOf } from './deskDatabase';

const ctx = { transport: 'ipc' } as never;
const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dd-data-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) {
    closeDatabase(dir);
    await rm(dir, { recursive: true, force: true });
  }
});

describe('Settings → Data', () => {
  it('checks the database and says it is whole', async () => {
    const dir = dataDir();
    const { handlers } = createDataServices({ dataDir: dir });
    const result = await handlers['data.check']({}, ctx);
    expect(result).toMatchObject({ ok: true, path: join(dir, DATABASE_FILE), problems: [], advice: null });
  });

  it('backs up to the data folder where there is no save dialog, and to the chosen file otherwise', async () => {
    const dir = dataDir();
    databaseOf(dir).run("INSERT INTO imported (source, at, detail) VALUES ('x', 'now', '{}')");
    const inFolder = await createDataServices({ dataDir: dir }).handlers['data.backup']({}, ctx);
    expect(inFolder).toMatchObject({
      written: true,
      path: expect.stringContaining(join(dir, 'backups', 'desk-')),
    });
    const chosen = join(dataDir(), 'copy.db');
    const asked: string[] = [];
    const withDialog = createDataServices({
      dataDir: dir,
      chooseSaveFile: async (o) => {
        asked.push(o.defaultName);
        return chosen;
      },
    });
    expect(await withDialog.handlers['data.backup']({}, ctx)).toMatchObject({ written: true, path: chosen });
    expect(asked[0]).toMatch(/^desk-.*\.db$/);
    expect(readFileSync(chosen).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  it('writes nothing when the save dialog is cancelled', async () => {
    const dir = dataDir();
    const { handlers } = createDataServices({ dataDir: dir, chooseSaveFile: async () => null });
    expect(await handlers['data.backup']({}, ctx)).toEqual({ written: false });
  });

  it('names the damaged file and the backup to restore, and never starts empty over it', async () => {
    const dir = dataDir();
    const { handlers } = createDataServices({ dataDir: dir });
    const backup = await handlers['data.backup']({}, ctx);
    closeDatabase(dir);
    const path = join(dir, DATABASE_FILE);
    const garbage = Buffer.alloc(8192, 7);
    writeFileSync(path, garbage);
    await rm(`${path}-wal`, { force: true });
    await rm(`${path}-shm`, { force: true });
    const failure = await Promise.resolve()
      .then(() => handlers['data.check']({}, ctx))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeskFailure);
    expect((failure as DeskFailure).message).toContain(path);
    expect((failure as DeskFailure).message).toContain((backup as { path: string }).path);
    expect(readFileSync(path)).toEqual(garbage);
  });
});
