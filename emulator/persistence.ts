import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Write to a temporary file, fsync it, rename over the target and fsync the directory: a crash leaves
 * either the old or the new content, never a torn file.
 */
export function writeFileAtomic(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < buffer.length) written += writeSync(fd, buffer, written, buffer.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  try {
    const dirFd = openSync(dirname(path), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some platforms (Windows) cannot open a directory for fsync; the rename itself is still atomic.
  }
}

export function readFileIfExists(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Blobs (uploaded files, error files) live beside the state file when a data dir is set, else in memory. */
export class BlobStore {
  private readonly memory = new Map<string, Buffer>();

  constructor(private readonly dir: string | undefined) {}

  put(name: string, data: Buffer): void {
    if (this.dir) writeFileAtomic(join(this.dir, 'blobs', name), data);
    else this.memory.set(name, data);
  }

  get(name: string): Buffer | undefined {
    if (this.dir) return readFileIfExists(join(this.dir, 'blobs', name));
    return this.memory.get(name);
  }

  clear(): void {
    this.memory.clear();
  }
}
