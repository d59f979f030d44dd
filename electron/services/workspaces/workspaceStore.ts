import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { endianness } from 'node:os';
import {
  encodeLengths,
  isPackedRows,
  unpackRows,
  workspaceEditSchema,
  workspaceMetaSchema,
  workspaceSchema,
  type PackedRows,
  type Workspace,
  type WorkspaceCounts,
  type WorkspaceCreated,
  type WorkspaceEdit,
  type WorkspaceMeta,
  type WorkspaceRow,
  type WorkspaceSource,
} from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import { appendDurable, writeFileAtomic } from '../storage/atomicFile';
import { applyEdits } from './applyEdits';
import { HeldWorkspace, type WorkspaceChanges } from './heldWorkspace';

/** Told of every new workspace and every edit once it is durable (the audit trail listens). */
export interface WorkspaceObserver {
  created(meta: WorkspaceMeta, imported: { headers: string[]; rows: number; mapping: unknown }): void;
  edited(id: string, version: number, changes: WorkspaceChanges): void;
  deleted(meta: WorkspaceMeta): void;
}

const SNAPSHOT = 'workspace.json';
const JOURNAL = 'journal.ndjson';
const META = 'meta.json';
/** How long rows sent ahead of a new workspace are held (see stageRows). */
const STAGED_FOR_MS = 10 * 60 * 1000;

/**
 * Workspaces on disk: a snapshot written atomically plus a journal of edits appended with fsync.
 * An edit is durable before the call that sent it returns, so a crash loses nothing that was shown.
 * Opening a workspace replays the journal and folds it into a fresh snapshot.
 */
export class WorkspaceStore {
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Versions of workspaces whose journal is being appended to, to catch lost or reordered edits. */
  private readonly versions = new Map<string, number>();

  /**
   * Rows sent ahead of a new workspace (while the person confirms the mapping), already in the form
   * the snapshot keeps them. One at a time: staging again, or creating from them, lets the last go.
   */
  private staged: {
    id: string;
    rowCount: number;
    json: string;
    timer: ReturnType<typeof setTimeout>;
  } | null = null;

  /** The workspace last opened or edited, kept while an observer wants each edit's old values. */
  private held: HeldWorkspace | null = null;
  /** Awaited after each durable edit (team mode voids an approval that no longer holds). */
  private readonly editListeners: Array<(id: string, version: number) => Promise<void>> = [];

  /**
   * Calls `listener` after each edit is durable, before the edit's call answers. A listener that
   * fails does not fail the edit (it is on disk already); listeners catch and report their own errors.
   */
  onEdited(listener: (id: string, version: number) => Promise<void>): void {
    this.editListeners.push(listener);
  }

  constructor(
    private readonly root: string,
    private readonly observer: WorkspaceObserver | null = null,
  ) {}

  /**
   * Holds packed rows for the workspace about to be created from them, so that confirming the
   * mapping leaves only the file to write. Held for ten minutes at most, and only the last rows sent.
   */
  stageRows(packedRows: PackedRows): { stageId: string; rowCount: number } {
    // The same text as JSON.stringify({ ...packedRows, lengths }) gives, built around the texts
    // rather than by copying them (see jsonStringLiteral).
    const json =
      `{"texts":${jsonStringLiteral(packedRows.texts)},` +
      `"lengths":${JSON.stringify(lengthsText(packedRows.lengths))},` +
      `"rowNumbers":${JSON.stringify(packedRows.rowNumbers)},"width":${JSON.stringify(packedRows.width)}}`;
    this.dropStaged();
    const id = randomUUID();
    const rowCount = packedRows.rowNumbers.length;
    const timer = setTimeout(() => this.dropStaged(id), STAGED_FOR_MS);
    // A timer must not keep the process (the CLI, a test) alive.
    (timer as { unref?: () => void }).unref?.();
    this.staged = { id, rowCount, json, timer };
    return { stageId: id, rowCount };
  }

  /** Lets the staged rows go (those of `id` only, when given). */
  private dropStaged(id?: string): void {
    if (!this.staged || (id !== undefined && this.staged.id !== id)) return;
    clearTimeout(this.staged.timer);
    this.staged = null;
  }

  private dir(id: string): string {
    return join(this.root, id);
  }

  /** One operation at a time per workspace, in the order they were asked for. */
  private serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.queues.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  }

  /**
   * A new workspace, on disk before this returns. Rows given packed are written packed (the
   * snapshot is then a few large values rather than 100,000 objects to encode) and unpacked the
   * first time the workspace is opened.
   */
  async create(input: {
    name: string;
    source: WorkspaceSource;
    headers: string[];
    /** The rows as a list, or `packedRows` instead, or the id of rows staged with stageRows. */
    rows?: WorkspaceRow[];
    packedRows?: PackedRows;
    stagedRows?: string;
    mapping: Record<string, unknown> | null;
  }): Promise<WorkspaceCreated> {
    const staged = input.stagedRows === undefined ? null : this.staged;
    if (input.stagedRows !== undefined && staged?.id !== input.stagedRows) {
      throw new DeskFailure(
        'STAGED_ROWS_GONE',
        'The rows sent ahead for this workspace are no longer held; send them with the request.',
      );
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    const meta: WorkspaceMeta = {
      id,
      name: input.name,
      createdAt: now,
      updatedAt: now,
      state: 'draft',
      source: input.source,
      counts: null,
    };
    const nextKey = staged
      ? staged.rowCount
      : input.packedRows
        ? input.packedRows.rowNumbers.length
        : (input.rows ?? []).reduce((max, r) => Math.max(max, r.key + 1), 0);
    const rows = staged
      ? {}
      : input.packedRows
        ? { packedRows: { ...input.packedRows, lengths: lengthsText(input.packedRows.lengths) } }
        : { rows: input.rows ?? [] };
    const snapshot = JSON.stringify({
      ...meta,
      headers: input.headers,
      ...rows,
      nextKey,
      mapping: input.mapping,
      version: 0,
    });
    await mkdir(this.dir(id), { recursive: true });
    await writeFileAtomic(
      join(this.dir(id), SNAPSHOT),
      // Staged rows are already JSON: they join the snapshot's other fields as they are.
      staged ? `${snapshot.slice(0, -1)},"packedRows":${staged.json}}` : snapshot,
    );
    await writeFileAtomic(join(this.dir(id), META), JSON.stringify(meta));
    // Rows staged and then sent with the request after all (held too long, or another file's) are
    // not needed any more either.
    if (staged) this.dropStaged(staged.id);
    else this.dropStaged();
    this.versions.set(id, 0);
    if (this.observer) {
      const rowCount = staged
        ? staged.rowCount
        : (input.packedRows?.rowNumbers.length ?? input.rows?.length ?? 0);
      this.observer.created(meta, { headers: input.headers, rows: rowCount, mapping: input.mapping });
      // The grid edits a new workspace at once: read it for the edits' old values now, after this
      // answer has gone, rather than at the first edit (about 0.3 s at 100,000 rows).
      setImmediate(() => void this.hold(id).catch(() => undefined));
    }
    return { ...meta, nextKey, version: 0 };
  }

  async list(): Promise<WorkspaceMeta[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    const metas = await Promise.all(
      entries
        .filter((e) => e.isDirectory())
        .map(async (e) => {
          const meta = await this.readMeta(e.name).catch(() => null);
          if (!meta) return null;
          // The journal's time is the last edit's time: meta.json is not rewritten on every keystroke.
          const journal = await stat(join(this.dir(e.name), JOURNAL)).catch(() => null);
          if (journal && journal.size > 0 && journal.mtime.toISOString() > meta.updatedAt) {
            meta.updatedAt = journal.mtime.toISOString();
          }
          return meta;
        }),
    );
    return metas
      .filter((m): m is WorkspaceMeta => m !== null)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  open(id: string): Promise<Workspace> {
    return this.serial(id, async () => {
      const workspace = await this.load(id);
      // Fold the journal into the snapshot so it stays short.
      await this.writeSnapshot(workspace);
      await writeFileAtomic(join(this.dir(id), JOURNAL), '');
      this.versions.set(id, workspace.version);
      // A copy of its own: the workspace returned here must not change under its reader's feet.
      if (this.observer) this.held = new HeldWorkspace(id, copyOfRows(workspace));
      return workspace;
    });
  }

  /** The workspace as it stands (snapshot plus journal), without folding the journal: for readers such as the uploader. */
  read(id: string): Promise<Workspace> {
    return this.serial(id, () => this.load(id));
  }

  edit(id: string, baseVersion: number, edits: WorkspaceEdit[]): Promise<{ version: number }> {
    return this.serial(id, async () => {
      let version = this.versions.get(id);
      if (version === undefined) {
        version = (await this.load(id)).version;
        this.versions.set(id, version);
      }
      if (version !== baseVersion) {
        throw new DeskFailure(
          'STALE_WORKSPACE',
          'This workspace changed elsewhere (another window?). Reopen it to see the latest version.',
          { version },
        );
      }
      const next = version + edits.length;
      // The values before, for the audit trail: from the workspace held in memory (read once).
      let changes: WorkspaceChanges | null = null;
      if (this.observer) {
        if (this.held?.id !== id) this.held = new HeldWorkspace(id, await this.load(id));
        changes = this.held.apply(edits);
      }
      try {
        await appendDurable(join(this.dir(id), JOURNAL), `${JSON.stringify({ v: next, edits })}\n`);
      } catch (e) {
        // What is held is now ahead of the disk: read it again at the next edit.
        this.held = null;
        throw e;
      }
      this.versions.set(id, next);
      if (changes) this.observer?.edited(id, next, changes);
      for (const listener of this.editListeners) await listener(id, next).catch(() => undefined);
      const rename = edits.findLast((e) => e.op === 'rename');
      if (rename?.op === 'rename') {
        const meta = await this.readMeta(id);
        meta.name = rename.name;
        await writeFileAtomic(join(this.dir(id), META), JSON.stringify(meta));
      }
      return { version: next };
    });
  }

  /** Reads the workspace into memory for the edits' old values, unless it is held already. */
  private hold(id: string): Promise<HeldWorkspace> {
    return this.serial(id, async () => {
      if (this.held?.id !== id) this.held = new HeldWorkspace(id, await this.load(id)).indexRows();
      return this.held;
    });
  }

  summary(id: string, counts: WorkspaceCounts, state?: WorkspaceMeta['state']): Promise<WorkspaceMeta> {
    return this.serial(id, async () => {
      const meta = await this.readMeta(id);
      meta.counts = counts;
      if (state) meta.state = state;
      meta.updatedAt = new Date().toISOString();
      await writeFileAtomic(join(this.dir(id), META), JSON.stringify(meta));
      return meta;
    });
  }

  delete(id: string): Promise<{ deleted: boolean }> {
    return this.serial(id, async () => {
      const exists = await stat(this.dir(id)).catch(() => null);
      const meta = this.observer ? await this.readMeta(id).catch(() => null) : null;
      await rm(this.dir(id), { recursive: true, force: true });
      this.versions.delete(id);
      if (this.held?.id === id) this.held = null;
      if (meta) this.observer?.deleted(meta);
      return { deleted: exists !== null };
    });
  }

  private async readMeta(id: string): Promise<WorkspaceMeta> {
    const text = await readFile(join(this.dir(id), META), 'utf8').catch(() => {
      throw new DeskFailure('NOT_FOUND', 'That workspace no longer exists.');
    });
    return workspaceMetaSchema.parse(JSON.parse(text));
  }

  /** The snapshot plus every complete journal line; a line torn by a crash mid-append is ignored. */
  private async load(id: string): Promise<Workspace> {
    const text = await readFile(join(this.dir(id), SNAPSHOT), 'utf8').catch(() => {
      throw new DeskFailure('NOT_FOUND', 'That workspace no longer exists.');
    });
    const workspace = workspaceSchema.parse(unpackSnapshot(JSON.parse(text)));
    const meta = await this.readMeta(id).catch(() => null);
    if (meta) {
      workspace.counts = meta.counts;
      workspace.state = meta.state;
    }
    const journal = await readFile(join(this.dir(id), JOURNAL), 'utf8').catch(() => '');
    for (const line of journal.split('\n')) {
      if (!line.trim()) continue;
      let entry: { v: number; edits: unknown[] };
      try {
        entry = JSON.parse(line) as { v: number; edits: unknown[] };
      } catch {
        break;
      }
      if (typeof entry.v !== 'number' || entry.v <= workspace.version || !Array.isArray(entry.edits))
        continue;
      const edits = entry.edits.map((e) => workspaceEditSchema.parse(e));
      applyEdits(workspace, edits);
      workspace.version = entry.v;
    }
    return workspace;
  }

  private async writeSnapshot(workspace: Workspace): Promise<void> {
    workspace.updatedAt = new Date().toISOString();
    await writeFileAtomic(join(this.dir(workspace.id), SNAPSHOT), JSON.stringify(workspace));
    await writeFileAtomic(join(this.dir(workspace.id), META), JSON.stringify(metaOf(workspace)));
  }
}

function metaOf(w: Workspace): WorkspaceMeta {
  return {
    id: w.id,
    name: w.name,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    state: w.state,
    source: w.source,
    counts: w.counts,
  };
}

/** Cell lengths as a workspace file keeps them (base64 of 32-bit little-endian numbers). */
/** What JSON.stringify writes as an escape in a string: quote, backslash, controls, and surrogates (lone ones). */
// Control characters are exactly what this looks for.
// eslint-disable-next-line no-control-regex
const NEEDS_JSON_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as a JSON string literal, as JSON.stringify writes it. A new workspace's texts are tens
 * of megabytes that seldom hold anything to escape; quoted as they are, the literal joins the
 * texts without copying them, where JSON.stringify scans and copies all of them, on the import's
 * path when the mapping is confirmed at once (measured 64–490 ms at 100k rows on a busy two-core
 * machine). The copy is made once, when the snapshot is written.
 */
export function jsonStringLiteral(text: string): string {
  return NEEDS_JSON_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function lengthsText(lengths: PackedRows['lengths']): string {
  if (typeof lengths === 'string') return lengths;
  if (endianness() !== 'LE') return encodeLengths(lengths);
  return Buffer.from(lengths.buffer, lengths.byteOffset, lengths.byteLength).toString('base64');
}

/** A snapshot written with packed rows (a new workspace) read as one with a list of rows. */
function unpackSnapshot(snapshot: unknown): unknown {
  if (typeof snapshot !== 'object' || snapshot === null || !('packedRows' in snapshot)) return snapshot;
  const { packedRows, ...rest } = snapshot as { packedRows: unknown };
  if (!isPackedRows(packedRows))
    throw new DeskFailure('DAMAGED_WORKSPACE', 'This workspace file is damaged.');
  return { ...rest, rows: unpackRows(packedRows) };
}

/** The workspace with rows and cells of its own (about 40 ms at 100,000 rows of 8 cells; the rest is shared, read-only). */
function copyOfRows(workspace: Workspace): Workspace {
  return { ...workspace, rows: workspace.rows.map((r) => ({ ...r, cells: [...r.cells] })) };
}
