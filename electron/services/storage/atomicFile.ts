import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Writes a whole file so that a crash leaves either the old or the new content, never a mix. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeFileAtomicWith(path, (handle) => handle.writeFile(data));
}

/**
 * The same, for content written in pieces (`write` gets the open temporary file): the file appears
 * at `path` whole and synced, or not at all; a failed write leaves no temporary file behind.
 */
export async function writeFileAtomicWith(
  path: string,
  write: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await write(handle);
    await handle.sync();
  } catch (e) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw e;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
  await syncDirectory(dirname(path));
}

/** Appends and fsyncs: once this resolves, the line survives a crash or power cut. */
export async function appendDurable(path: string, data: string): Promise<void> {
  const handle = await open(path, 'a');
  try {
    await handle.appendFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable; not possible (nor needed) on Windows.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  } finally {
    await handle.close();
  }
}
