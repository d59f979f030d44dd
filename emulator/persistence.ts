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

/**
 * An append-only file of JSON lines, fsynced on every flush. Donations are immutable, so they are
 * logged once instead of being rewritten in every snapshot. A torn last line (a crash mid-append)
 * is ignored on reading.
 */
export class AppendLog {
  private pending: string[] = [];

  constructor(private readonly path: string) {}

  append(entry: unknown): void {
    this.pending.push(`${JSON.stringify(entry)}\n`);
  }

  flush(): void {
    if (this.pending.length === 0) return;
    mkdirSync(dirname(this.path), { recursive: true });
    const fd = openSync(this.path, 'a');
    try {
      // Write in slices so that 100k pending lines never build one giant string.
      for (let i = 0; i < this.pending.length; i += 5000) {
        writeSync(fd, this.pending.slice(i, i + 5000).join(''));
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.pending = [];
  }

  /** Starts the log afresh (reset), atomically. */
  truncate(): void {
    this.pending = [];
    writeFileAtomic(this.path, '');
  }

  read(): unknown[] {
    const content = readFileIfExists(this.path);
    if (!content) return [];
    const entries: unknown[] = [];
    let goodBytes = 0;
    let start = 0;
    while (start < content.length) {
      const end = content.indexOf(0x0a, start);
      if (end === -1) break;
      try {
        entries.push(JSON.parse(content.toString('utf8', start, end)));
      } catch {
        break;
      }
      goodBytes = end + 1;
      start = end + 1;
    }
    // Only the tail can be torn by a crash; cut it off so that later appends start on a clean line.
    if (goodBytes < content.length) writeFileAtomic(this.path, content.subarray(0, goodBytes));
    return entries;
  }
}
