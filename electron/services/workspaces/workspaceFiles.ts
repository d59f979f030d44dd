import { open, readFile, readdir, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import {
  isPackedRows,
  unpackRows,
  withinWorkspaceLimits,
  workspaceCountsSchema,
  workspaceMappingSchema,
  workspaceSchema,
  workspaceSourceSchema,
  workspaceStateSchema,
  type Workspace,
  type WorkspaceMeta,
  type WorkspaceRow,
} from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import { writeFileAtomic } from '../storage/atomicFile';
import { ChunkCutter, chunkTexts, parseChunk, type ChunkEntry, type LoadedChunk } from './rowChunks';

/**
 * The files of one workspace's folder:
 * - `manifest.json`, written atomically: everything but the rows, and the list of chunk files that
 *   hold them in order. Replacing it is the moment a save takes effect: a crash before leaves the
 *   previous manifest and its chunks, a crash after the new ones.
 * - `rows-*.json`: the chunks (see rowChunks). Never rewritten: a changed chunk is a new file, and
 *   files no manifest names are removed after the manifest that stopped naming them is in place.
 * - `journal.ndjson`: edits since the manifest, appended with fsync (see WorkspaceStore).
 * - `meta.json`: what the list shows, small and rewritten on its own.
 * - `workspace.json`: the whole workspace in one JSON text, as workspaces were kept before chunks;
 *   read as it is and upgraded the first time the workspace is opened.
 */
export const MANIFEST = 'manifest.json';
export const LEGACY_SNAPSHOT = 'workspace.json';
export const JOURNAL = 'journal.ndjson';
export const META = 'meta.json';
/** Written when a workspace could not be opened, so the list can say so without trying again. */
export const UNOPENABLE = 'unopenable.json';
const CHUNK_FILE = /^rows-[0-9a-f]{16}\.json$/;

/** The longest text JavaScript can hold: a file longer than this cannot be read as one string. */
const LONGEST_TEXT = 2 ** 29 - 24;

const manifestSchema = z.object({
  format: z.literal(2),
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: workspaceStateSchema,
  source: workspaceSourceSchema,
  counts: workspaceCountsSchema.nullable(),
  headers: z.array(z.string()),
  nextKey: z.number().int().nonnegative(),
  mapping: workspaceMappingSchema.nullable(),
  version: z.number().int().nonnegative(),
  /** The most cells in a row, for the limits. */
  width: z.number().int().nonnegative(),
  chunks: z.array(
    z.object({
      file: z.string().regex(CHUNK_FILE),
      rows: z.number().int().nonnegative(),
      bytes: z.number().int().nonnegative(),
    }),
  ),
});
export type Manifest = z.infer<typeof manifestSchema>;
/** Everything of a workspace except its rows. */
export type WorkspaceHead = Omit<Workspace, 'rows'>;

/** A workspace that cannot be opened: the failure every reader of it gets, in plain words. */
export function unopenable(name: string, why: string, source?: { fileName: string }): DeskFailure {
  const copy = source?.fileName ? ` (${source.fileName})` : '';
  return new DeskFailure(
    'DAMAGED_WORKSPACE',
    `“${name}” cannot be opened: ${why}. Delete it from the list, or open a copy of the original spreadsheet${copy} to start again.`,
  );
}

async function writeNew(path: string, text: string): Promise<number> {
  const bytes = Buffer.from(text);
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return bytes.byteLength;
}

/** Writes rows as chunk files (each fsynced; not yet named by any manifest). */
export async function writeChunks(dir: string, rows: Iterable<WorkspaceRow>): Promise<ChunkEntry[]> {
  const entries: ChunkEntry[] = [];
  for (const chunk of chunkTexts(rows)) {
    const file = `rows-${randomBytes(8).toString('hex')}.json`;
    entries.push({ file, rows: chunk.rows, bytes: await writeNew(join(dir, file), chunk.text) });
  }
  return entries;
}

/**
 * Rows handed over one at a time, written as chunk files as each chunk fills (each fsynced; not yet
 * named by any manifest): a workspace made from a file read in passes is never whole in memory.
 * Keys are given in order from 1. `flush` writes the chunks that are full; `finish` the rest.
 */
export class ChunkFileWriter {
  readonly entries: ChunkEntry[] = [];
  rows = 0;
  width = 0;
  text = 0;
  private readonly cutter = new ChunkCutter();

  constructor(private readonly dir: string) {}

  add(row: { rowNumber: number | null; cells: string[] }): void {
    this.rows++;
    this.width = Math.max(this.width, row.cells.length);
    for (const cell of row.cells) this.text += cell.length;
    this.cutter.add({ key: this.rows, rowNumber: row.rowNumber, cells: row.cells });
  }

  async flush(): Promise<void> {
    for (let chunk = this.cutter.full.shift(); chunk; chunk = this.cutter.full.shift()) {
      const file = `rows-${randomBytes(8).toString('hex')}.json`;
      this.entries.push({ file, rows: chunk.rows, bytes: await writeNew(join(this.dir, file), chunk.text) });
    }
  }

  async finish(): Promise<ChunkEntry[]> {
    this.cutter.end();
    await this.flush();
    return this.entries;
  }
}

/** Chunks read into memory as the workspace's rows are kept between saves. */
export async function writeLoadedChunks(dir: string, chunks: LoadedChunk[]): Promise<ChunkEntry[]> {
  const entries: ChunkEntry[] = [];
  for (const chunk of chunks) {
    if (chunk.file !== null) entries.push({ file: chunk.file, rows: chunk.rows.length, bytes: chunk.bytes });
    else if (chunk.rows.length > 0) {
      const written = await writeChunks(dir, chunk.rows);
      entries.push(...written);
    }
  }
  return entries;
}

/** Puts the manifest in place (the save's moment), then removes chunk files it no longer names. */
export async function commitManifest(
  dir: string,
  head: WorkspaceHead,
  chunks: ChunkEntry[],
  width: number,
): Promise<void> {
  const manifest: Manifest = {
    format: 2,
    id: head.id,
    name: head.name,
    createdAt: head.createdAt,
    updatedAt: head.updatedAt,
    state: head.state,
    source: head.source,
    counts: head.counts,
    headers: head.headers,
    nextKey: head.nextKey,
    mapping: head.mapping,
    version: head.version,
    width,
    chunks,
  };
  await writeFileAtomic(join(dir, MANIFEST), JSON.stringify(manifest));
  await removeUnnamedChunks(dir, new Set(chunks.map((c) => c.file)));
}

async function removeUnnamedChunks(dir: string, named: ReadonlySet<string>): Promise<void> {
  const files = await readdir(dir).catch(() => [] as string[]);
  for (const file of files) {
    if (CHUNK_FILE.test(file) && !named.has(file)) await rm(join(dir, file), { force: true });
  }
}

/** The manifest, or null when the folder has none (a workspace kept in today's one file). */
export async function readManifest(dir: string, name: string): Promise<Manifest | null> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unopenable(name, 'its list of saved rows is damaged');
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw unopenable(name, 'its list of saved rows is damaged');
  const manifest: Manifest = parsed.data;
  const rows = manifest.chunks.reduce((sum: number, c: ChunkEntry) => sum + c.rows, 0);
  if (!withinWorkspaceLimits(rows, manifest.width))
    throw unopenable(name, 'it holds more rows or columns than a workspace can', manifest.source);
  return manifest;
}

/** Every chunk a manifest names, read and checked against the manifest (size and row count). */
export async function readChunks(dir: string, manifest: Manifest): Promise<LoadedChunk[]> {
  const chunks: LoadedChunk[] = [];
  for (const entry of manifest.chunks) {
    const damaged = () =>
      unopenable(manifest.name, 'part of its saved rows is missing or damaged', manifest.source);
    const bytes = await readFile(join(dir, entry.file)).catch(() => null);
    if (!bytes || bytes.byteLength !== entry.bytes) throw damaged();
    let rows: WorkspaceRow[];
    try {
      rows = parseChunk(bytes.toString('utf8'));
    } catch {
      throw damaged();
    }
    if (rows.length !== entry.rows) throw damaged();
    chunks.push({ file: entry.file, bytes: entry.bytes, rows });
  }
  return chunks;
}

export function headOf(manifest: Manifest): WorkspaceHead {
  const { format: _format, width: _width, chunks: _chunks, ...head } = manifest;
  return head;
}

/** A workspace kept in today's one file, read whole (packed rows unpacked, after checking their size). */
export async function readLegacy(
  dir: string,
  name: string,
  source?: { fileName: string },
): Promise<Workspace> {
  const size = await stat(join(dir, LEGACY_SNAPSHOT)).catch(() => null);
  if (!size) throw new DeskFailure('NOT_FOUND', 'That workspace no longer exists.');
  // A file longer than any string can hold cannot be read this way at all.
  if (size.size > LONGEST_TEXT) throw unopenable(name, 'it is too large to open', source);
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(await readFile(join(dir, LEGACY_SNAPSHOT), 'utf8'));
  } catch {
    throw unopenable(name, 'its saved rows are damaged', source);
  }
  if (typeof snapshot === 'object' && snapshot !== null && 'packedRows' in snapshot) {
    const { packedRows, ...rest } = snapshot as { packedRows: unknown };
    // isPackedRows checks the sizes against the limits before anything is unpacked.
    if (!isPackedRows(packedRows)) throw unopenable(name, 'its saved rows are damaged or too many', source);
    snapshot = { ...rest, rows: unpackRows(packedRows) };
  }
  const parsed = workspaceSchema.safeParse(snapshot);
  if (!parsed.success) throw unopenable(name, 'its saved rows are damaged', source);
  const width = parsed.data.rows.reduce((most, r) => Math.max(most, r.cells.length), 0);
  if (!withinWorkspaceLimits(parsed.data.rows.length, width))
    throw unopenable(name, 'it holds more rows or columns than a workspace can', parsed.data.source);
  return parsed.data;
}

/** Why the list should show this workspace as one that cannot be opened, or null. Cheap: no rows are read. */
export async function problemOf(dir: string, meta: WorkspaceMeta): Promise<string | null> {
  const marker = await readFile(join(dir, UNOPENABLE), 'utf8').catch(() => null);
  if (marker !== null) {
    try {
      const { message } = JSON.parse(marker) as { message?: unknown };
      if (typeof message === 'string') return message;
    } catch {
      // A torn marker still says the workspace failed to open.
    }
    return unopenable(meta.name, 'its saved rows are damaged', meta.source).message;
  }
  try {
    if (await readManifest(dir, meta.name)) return null;
  } catch (e) {
    return e instanceof DeskFailure ? e.message : unopenable(meta.name, 'it is damaged', meta.source).message;
  }
  const legacy = await stat(join(dir, LEGACY_SNAPSHOT)).catch(() => null);
  if (!legacy) return unopenable(meta.name, 'its saved rows are missing', meta.source).message;
  if (legacy.size > LONGEST_TEXT)
    return unopenable(meta.name, 'it is too large to open', meta.source).message;
  return null;
}

/** Remembers that a workspace could not be opened (see problemOf). */
export async function markUnopenable(dir: string, failure: DeskFailure): Promise<void> {
  await writeFileAtomic(join(dir, UNOPENABLE), JSON.stringify({ message: failure.message })).catch(
    () => undefined,
  );
}
