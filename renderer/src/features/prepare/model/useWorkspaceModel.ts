import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Workspace, WorkspaceEdit, WorkspaceRow } from '../../../../../shared/contract';
import type { MappedIssue } from '../../../../../shared/mapping';
import { canonicalJson, type CheckableDonation, type FileIssue } from '../../../../../shared/donation';
import {
  checkRow,
  makeRowChecker,
  parseWorkspaceMapping,
  type CurrencyTotal,
  type RowChecker,
  type WorkspaceMapping,
} from '../../../../../shared/workspace';
import { desk } from '../../../app/deskClient';
import { SaveQueue, type SaveState } from './saveQueue';
import { EditHistory, type CellChange, type HistoryStep } from '../../../lib/editHistory';
import { RowResults, type RecipientTotal } from './rowResults';
import type { AcrossRowsReply, AcrossRowsRequest } from './acrossRowsState';
import type { PreparedChecks } from '../import/importClient';

export interface CellEdit {
  key: number;
  column: number;
  value: string;
}

export type { SaveState };

/**
 * Resolves just after the next frame (or after 50 ms when there are no frames, in a hidden window),
 * so work that need not be on screen yet does not delay the frame.
 */
function afterNextFrame(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      resolve();
    };
    requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, 50);
  });
}

/** How long after the last edit the across-rows warnings (duplicates, outliers) are recomputed. */
const FILE_CHECK_DELAY_MS = 250;

/**
 * One open workspace: its rows, every row checked with the shared rules, undo and redo, and every
 * edit saved to main as it happens (main journals it durably before answering). `prepared` holds
 * the rows already checked in the import worker (a new workspace), so the window does not check
 * them again.
 */
export function useWorkspaceModel(initial: Workspace, prepared?: PreparedChecks) {
  const [rows, setRows] = useState<WorkspaceRow[]>(initial.rows);
  const [name, setName] = useState(initial.name);
  const [mapping, setMappingState] = useState<WorkspaceMapping | null>(() =>
    parseWorkspaceMapping(initial.mapping),
  );
  const checker = useMemo<RowChecker | null>(
    () => (mapping ? makeRowChecker(initial.id, initial.headers, mapping, initial.rows) : null),
    // The number style is detected once per mapping, from the rows as they were opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [mapping],
  );
  const results = useRef(new RowResults());
  const [resultsVersion, setResultsVersion] = useState(0);
  const fileIssuesRef = useRef(new Map<number, MappedIssue[]>());
  const [summary, setSummary] = useState(() => ({
    counts: { rows: 0, valid: 0, invalid: 0, warnings: 0 },
    totals: [] as CurrencyTotal[],
    largest: [] as RecipientTotal[],
  }));
  /** Shows what the results hold now: counts, totals and largest recipients come from RowResults' running sums. */
  const largestTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const publish = useCallback(() => {
    const r = results.current;
    // The cells' marks change at once; the figures above the grid follow in the next render, so
    // an edit reaches the screen without waiting for the summary (a transition yields to the frame).
    setResultsVersion((v) => v + 1);
    startTransition(() =>
      setSummary((previous) => ({
        counts: r.counts(fileIssuesRef.current.keys()),
        totals: r.currencyTotals(),
        largest: previous.largest,
      })),
    );
    // The largest recipients look at every recipient: worked out once the typing pauses.
    if (largestTimer.current) clearTimeout(largestTimer.current);
    largestTimer.current = setTimeout(() => {
      const largest = results.current.largestRecipients();
      setSummary((previous) => ({ ...previous, largest }));
    }, FILE_CHECK_DELAY_MS);
  }, []);
  const [fileIssues, setFileIssues] = useState<Map<number, MappedIssue[]>>(() => new Map());
  const [save, setSave] = useState<SaveState>({ status: 'saved' });
  const history = useRef(new EditHistory());
  const [historyState, setHistoryState] = useState({
    canUndo: false,
    canRedo: false,
    undoLabel: undefined as string | undefined,
    redoLabel: undefined as string | undefined,
  });
  const syncHistory = useCallback(() => {
    const h = history.current;
    const next = { canUndo: h.canUndo, canRedo: h.canRedo, undoLabel: h.undoLabel, redoLabel: h.redoLabel };
    // The undo and redo buttons, like the summary, may show a frame after the edit.
    startTransition(() => setHistoryState(next));
  }, []);
  const rowsRef = useRef(rows);
  /** Row position by key; cell edits keep positions, so it is rebuilt only when rows are added or removed. */
  const positions = useRef<{ length: number; firstKey: number | undefined; map: Map<number, number> } | null>(
    null,
  );
  const positionOf = useCallback((key: number): number => {
    const rowsNow = rowsRef.current;
    let cached = positions.current;
    if (!cached || cached.length !== rowsNow.length || cached.firstKey !== rowsNow[0]?.key) {
      cached = {
        length: rowsNow.length,
        firstKey: rowsNow[0]?.key,
        map: new Map(rowsNow.map((r, i) => [r.key, i])),
      };
      positions.current = cached;
    }
    const at = cached.map.get(key);
    // A stale entry (rows moved without changing count) is caught by checking the key.
    if (at !== undefined && rowsNow[at]?.key === key) return at;
    positions.current = null;
    return rowsNow.findIndex((r) => r.key === key);
  }, []);
  useEffect(() => {
    rowsRef.current = rows;
  }, [rows]);

  const nextKey = useRef(initial.nextKey);
  const saveQueue = useRef<SaveQueue | null>(null);
  saveQueue.current ??= new SaveQueue(
    initial.version,
    (baseVersion, edits) => desk['workspace.edit']({ id: initial.id, baseVersion, edits }),
    // "Saving…" may show a frame after the edit; "saved" and "failed" show as they happen.
    (state) => (state.status === 'saving' ? startTransition(() => setSave(state)) : setSave(state)),
    // Sent after the edit has reached the screen: encoding and sending it is not the frame's work.
    afterNextFrame,
  );

  // Across-rows warnings (duplicates, outliers) follow the rows, in a worker, once the typing stops.
  const acrossWorker = useRef<{ worker: Worker; checker: RowChecker; rows: WorkspaceRow[] } | null>(null);
  const acrossRequest = useRef(0);
  const changedKeys = useRef(new Set<number>());
  useEffect(
    () => () => {
      acrossWorker.current?.worker.terminate();
      acrossWorker.current = null;
    },
    [],
  );
  /** Shows the across-rows warnings a worker found, with `row` as a position in `keys`. */
  const showFileIssues = useCallback(
    (checkerUsed: RowChecker, issues: readonly FileIssue[], keys: readonly number[]) => {
      const byKey = new Map<number, MappedIssue[]>();
      for (const issue of issues) {
        const key = keys[issue.row];
        if (key === undefined) continue;
        const column = checkerUsed.compiled.columnOfField.get(issue.field);
        const placed: MappedIssue = {
          ...issue,
          ...(column ? { column: column.header, columnIndex: column.index } : {}),
        };
        byKey.set(key, [...(byKey.get(key) ?? []), placed]);
      }
      fileIssuesRef.current = byKey;
      setFileIssues(byKey);
      publish();
    },
    [publish],
  );
  const adoptAcrossWorker = useCallback(
    (worker: Worker, checkerUsed: RowChecker, rowsNow: WorkspaceRow[]) => {
      worker.onmessage = (event: MessageEvent<AcrossRowsReply>) => {
        if (event.data.id !== acrossRequest.current) return;
        showFileIssues(checkerUsed, event.data.issues, event.data.keys);
      };
      acrossWorker.current = { worker, checker: checkerUsed, rows: rowsNow };
      changedKeys.current.clear();
    },
    [showFileIssues],
  );

  // The import worker's check of every row is taken as it is when it used this very checker.
  const preparedChecks = useRef(prepared);
  // Every row checked when the workspace opens or its mapping changes.
  useEffect(() => {
    if (!checker) return;
    const ready = preparedChecks.current;
    preparedChecks.current = undefined;
    if (ready && mapping && canUsePrepared(ready, mapping, checker, rows)) {
      results.current = RowResults.fromSeed(ready.seed, {
        rowOf: (key) => rowsRef.current[positionOf(key)],
        check: (row) => checkRow(checker, row),
      });
      acrossWorker.current?.worker.terminate();
      adoptAcrossWorker(ready.worker, checker, rows);
      const keys = rows.map((r) => r.key);
      queueMicrotask(() => showFileIssues(checker, ready.fileIssues, keys));
      return;
    }
    ready?.worker.terminate();
    const fresh = new RowResults();
    for (const row of rows) fresh.set(row.key, checkRow(checker, row));
    results.current = fresh;
    queueMicrotask(publish);
    // Only the checker triggers a full check; single edits re-check their own rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checker]);

  useEffect(() => {
    if (!checker || results.current.size === 0) return;
    const timer = setTimeout(() => {
      const donationOf = (key: number) => results.current.get(key)?.donation as CheckableDonation | undefined;
      const labels = () => rows.map((r, i) => String(r.rowNumber ?? `new ${i + 1}`));
      const state = acrossWorker.current;
      if (!state || state.checker !== checker) {
        state?.worker.terminate();
        const id = ++acrossRequest.current;
        const worker = new Worker(new URL('./acrossRowsWorker.ts', import.meta.url), { type: 'module' });
        adoptAcrossWorker(worker, checker, rows);
        const keys = rows.map((r) => r.key);
        worker.postMessage({
          type: 'reset',
          id,
          keys,
          labels: labels(),
          donations: keys.map(donationOf),
          ignoreMetadataKeys: checker.referenceKey ? [checker.referenceKey] : [],
        } satisfies AcrossRowsRequest);
        return;
      }
      const orderChanged =
        state.rows.length !== rows.length || state.rows.some((r, i) => r.key !== rows[i]?.key);
      state.rows = rows;
      if (!orderChanged && changedKeys.current.size === 0) return;
      const id = ++acrossRequest.current;
      const changed = [...changedKeys.current].map((key): [number, CheckableDonation | undefined] => [
        key,
        donationOf(key),
      ]);
      changedKeys.current.clear();
      state.worker.postMessage({
        type: 'update',
        id,
        changed,
        ...(orderChanged ? { keys: rows.map((r) => r.key), labels: labels() } : {}),
      } satisfies AcrossRowsRequest);
    }, FILE_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [checker, rows, resultsVersion, adoptAcrossWorker]);

  /** Resolves once every edit made so far is saved (true) or one was refused (false). */
  const whenSaved = useCallback(() => saveQueue.current?.whenSaved() ?? Promise.resolve(true), []);

  const persist = useCallback((edits: WorkspaceEdit[]) => {
    void saveQueue.current?.push(edits);
  }, []);

  const recheck = useCallback(
    (changed: WorkspaceRow[]) => {
      if (!checker) return;
      for (const row of changed) {
        results.current.set(row.key, checkRow(checker, row));
        changedKeys.current.add(row.key);
      }
      publish();
    },
    [checker, publish],
  );

  /**
   * The rows as they now stand, for the next change made before React renders: every change is
   * worked out from rowsRef and then given to React as a value, so the rows, their checks and the
   * counts change in one render.
   */
  const commitRows = useCallback((next: WorkspaceRow[]) => {
    rowsRef.current = next;
    setRows(next);
  }, []);

  /** Applies cell changes to the rows, re-checks the rows touched, and saves. */
  const applyCells = useCallback(
    (changes: readonly CellChange[], direction: 'after' | 'before') => {
      if (changes.length === 0) return;
      const byKey = new Map<number, CellChange[]>();
      for (const c of changes) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
      const touched: WorkspaceRow[] = [];
      const previous = rowsRef.current;
      const next = previous.slice();
      for (const [key, mine] of byKey) {
        let at = positionOf(key);
        if (previous[at]?.key !== key) at = previous.findIndex((r) => r.key === key);
        const row = previous[at];
        if (!row) continue;
        const cells = [...row.cells];
        for (const c of mine) {
          while (cells.length <= c.column) cells.push('');
          cells[c.column] = c[direction];
        }
        const updated = { ...row, cells };
        touched.push(updated);
        next[at] = updated;
      }
      commitRows(next);
      recheck(touched);
      persist(changes.map((c) => ({ op: 'set', key: c.key, column: c.column, value: c[direction] })));
    },
    [persist, recheck, positionOf, commitRows],
  );

  const edit = useCallback(
    (edits: readonly CellEdit[], label: string) => {
      const rowsNow = rowsRef.current;
      const changes: CellChange[] = [];
      for (const e of edits) {
        const before = rowsNow[positionOf(e.key)]?.cells[e.column] ?? '';
        if (before !== e.value) changes.push({ key: e.key, column: e.column, before, after: e.value });
      }
      if (!changes.length) return;
      history.current.record({ kind: 'cells', label, changes });
      syncHistory();
      applyCells(changes, 'after');
    },
    [applyCells, syncHistory, positionOf],
  );

  const insertRows = useCallback(
    (index: number, cellsList: string[][], label = 'Add row') => {
      const width = initial.headers.length;
      const created = cellsList.map((cells) => ({
        key: nextKey.current++,
        rowNumber: null,
        cells: Array.from({ length: width }, (_, i) => cells[i] ?? ''),
      }));
      const next = [...rowsRef.current];
      next.splice(Math.min(index, next.length), 0, ...created);
      commitRows(next);
      created.forEach((row, i) => history.current.record({ kind: 'insert', label, index: index + i, row }));
      syncHistory();
      recheck(created);
      persist(created.map((row, i) => ({ op: 'insert', index: index + i, row })));
      return created;
    },
    [initial.headers.length, persist, recheck, syncHistory, commitRows],
  );

  const deleteRows = useCallback(
    (keys: readonly number[]) => {
      const wanted = new Set(keys);
      const removed: { index: number; row: WorkspaceRow }[] = [];
      rowsRef.current.forEach((row, index) => {
        if (wanted.has(row.key)) removed.push({ index, row });
      });
      if (!removed.length) return;
      commitRows(rowsRef.current.filter((r) => !wanted.has(r.key)));
      for (const key of wanted) results.current.remove(key);
      publish();
      history.current.record({
        kind: 'delete',
        label: removed.length === 1 ? 'Delete row' : `Delete ${removed.length} rows`,
        rows: removed,
      });
      syncHistory();
      persist(removed.map(({ row }) => ({ op: 'delete', key: row.key })));
    },
    [persist, syncHistory, publish, commitRows],
  );

  const replay = useCallback(
    (step: HistoryStep, direction: 'undo' | 'redo') => {
      if (step.kind === 'cells') {
        applyCells(step.changes, direction === 'undo' ? 'before' : 'after');
        return;
      }
      const removing = (step.kind === 'insert') === (direction === 'undo');
      const entries = step.kind === 'insert' ? [{ index: step.index, row: step.row }] : step.rows;
      if (removing) {
        const keys = new Set(entries.map((e) => e.row.key));
        commitRows(rowsRef.current.filter((r) => !keys.has(r.key)));
        for (const key of keys) results.current.remove(key);
        publish();
        persist(entries.map((e) => ({ op: 'delete', key: e.row.key })));
      } else {
        const next = [...rowsRef.current];
        for (const e of entries) next.splice(Math.min(e.index, next.length), 0, e.row);
        commitRows(next);
        recheck(entries.map((e) => e.row));
        // A row sent again goes as a plain row, whatever object holds it here.
        persist(
          entries.map((e) => ({
            op: 'insert',
            index: e.index,
            row: { key: e.row.key, rowNumber: e.row.rowNumber, cells: [...e.row.cells] },
          })),
        );
      }
    },
    [applyCells, persist, recheck, publish, commitRows],
  );

  const undo = useCallback(() => {
    const step = history.current.undo();
    if (step) replay(step, 'undo');
    syncHistory();
  }, [replay, syncHistory]);

  const redo = useCallback(() => {
    const step = history.current.redo();
    if (step) replay(step, 'redo');
    syncHistory();
  }, [replay, syncHistory]);

  const setMapping = useCallback(
    (next: WorkspaceMapping) => {
      setMappingState(next);
      persist([{ op: 'mapping', mapping: next as unknown as Record<string, unknown> }]);
    },
    [persist],
  );

  const rename = useCallback(
    (next: string) => {
      setName(next);
      persist([{ op: 'rename', name: next }]);
    },
    [persist],
  );

  const checked = summary.counts.rows === rows.length;
  const resultOf = useCallback((key: number) => results.current.get(key), []);
  /** Whether a row is valid, without working out its issues (for filters over every row). */
  const isValid = useCallback((key: number) => results.current.isValid(key), []);
  /** Whether a row has a warning of its own, without working out its issues. */
  const hasWarning = useCallback((key: number) => results.current.hasWarning(key), []);

  // The workspace list shows counts; keep them current without writing on every keystroke.
  useEffect(() => {
    if (!checked) return;
    const timer = setTimeout(() => {
      void desk['workspace.summary']({
        id: initial.id,
        counts: summary.counts,
        state: summary.counts.invalid === 0 && summary.counts.rows > 0 ? 'ready' : 'draft',
      });
    }, 1500);
    return () => clearTimeout(timer);
  }, [initial.id, summary.counts, checked]);

  return {
    id: initial.id,
    headers: initial.headers,
    source: initial.source,
    name,
    rows,
    mapping,
    checker,
    /** Read through resultOf; resultsVersion changes whenever a result does. */
    resultOf,
    hasWarning,
    isValid,
    resultsVersion,
    fileIssues,
    summary,
    checked,
    save,
    whenSaved,
    edit,
    insertRows,
    deleteRows,
    undo,
    redo,
    setMapping,
    rename,
    ...historyState,
  };
}

export type WorkspaceModel = ReturnType<typeof useWorkspaceModel>;

/**
 * The import worker's check stands for this one only when it is certainly the same: the same
 * mapping, the same number style, and rows still keyed by their position.
 */
function canUsePrepared(
  ready: PreparedChecks,
  mapping: WorkspaceMapping,
  checker: RowChecker,
  rows: readonly WorkspaceRow[],
): boolean {
  if (ready.seed.numberStyle !== checker.numberStyle || ready.seed.flags.length !== rows.length) return false;
  if (canonicalJson(ready.mapping) !== canonicalJson(mapping)) return false;
  return rows.every((row, i) => row.key === i);
}
