import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { Workspace, WorkspaceEdit, WorkspaceRow } from '../../../../../shared/contract';
import { parseWorkspaceMapping, type WorkspaceMapping } from '../../../../../shared/workspace';
import { desk } from '../../../app/deskClient';
import { EditHistory, type CellChange, type HistoryStep } from '../../../lib/editHistory';
import type { PreparedChecks } from '../import/importClient';
import { afterNextFrame } from './afterNextFrame';
import { cellChangesFor, newRows, withCellChanges, withRowsAt, type CellEdit } from './rowEdits';
import { RowPositions } from './rowPositions';
import { SaveQueue, type SaveState } from './saveQueue';
import { useRowChecks } from './useRowChecks';

export type { CellEdit, SaveState };

/**
 * One open workspace: its rows, every row checked with the shared rules (useRowChecks), undo and
 * redo, and every edit saved to main as it happens (main journals it durably before answering).
 * `prepared` holds the rows already checked in the import worker (a new workspace), so the window
 * does not check them again.
 */
export function useWorkspaceModel(initial: Workspace, prepared?: PreparedChecks) {
  const [rows, setRows] = useState<WorkspaceRow[]>(initial.rows);
  const [name, setName] = useState(initial.name);
  const [mapping, setMappingState] = useState<WorkspaceMapping | null>(() =>
    parseWorkspaceMapping(initial.mapping),
  );
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
  const positions = useRef<RowPositions | null>(null);
  positions.current ??= new RowPositions(() => rowsRef.current);
  const positionOf = useCallback((key: number): number => positions.current!.of(key), []);
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

  const { checker, resultOf, isValid, hasWarning, resultsVersion, fileIssues, summary, recheck, forget } =
    useRowChecks(initial, prepared, mapping, rows, rowsRef, positionOf);

  /** Resolves once every edit made so far is saved (true) or one was refused (false). */
  const whenSaved = useCallback(() => saveQueue.current?.whenSaved() ?? Promise.resolve(true), []);

  const persist = useCallback((edits: WorkspaceEdit[]) => {
    void saveQueue.current?.push(edits);
  }, []);

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
      const { next, touched } = withCellChanges(rowsRef.current, changes, direction, positionOf);
      commitRows(next);
      recheck(touched);
      persist(changes.map((c) => ({ op: 'set', key: c.key, column: c.column, value: c[direction] })));
    },
    [persist, recheck, positionOf, commitRows],
  );

  const edit = useCallback(
    (edits: readonly CellEdit[], label: string) => {
      const changes = cellChangesFor(rowsRef.current, edits, positionOf);
      if (!changes.length) return;
      history.current.record({ kind: 'cells', label, changes });
      syncHistory();
      applyCells(changes, 'after');
    },
    [applyCells, syncHistory, positionOf],
  );

  const insertRows = useCallback(
    (index: number, cellsList: string[][], label = 'Add row') => {
      const created = newRows(cellsList, initial.headers.length, nextKey.current);
      nextKey.current += created.length;
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
      forget(wanted);
      history.current.record({
        kind: 'delete',
        label: removed.length === 1 ? 'Delete row' : `Delete ${removed.length} rows`,
        rows: removed,
      });
      syncHistory();
      persist(removed.map(({ row }) => ({ op: 'delete', key: row.key })));
    },
    [persist, syncHistory, forget, commitRows],
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
        forget(keys);
        persist(entries.map((e) => ({ op: 'delete', key: e.row.key })));
      } else {
        commitRows(withRowsAt(rowsRef.current, entries));
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
    [applyCells, persist, recheck, forget, commitRows],
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
