import {
  forwardRef,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import './grid.css';
import { fromTsv, toTsv } from './clipboard';
import { count } from '../../../../shared/i18n';
import { scrollLeftToShow, scrollTopToShow } from './gridScroll';
import { GridHeader } from './GridHeader';
import { GridRowView, type CellEvents } from './GridRowView';
import {
  DEFAULT_WIDTH,
  NUMBER_WIDTH,
  ROW_HEIGHT,
  type ActiveCell,
  type CellChangeRequest,
  type CellIssueView,
  type DataGridHandle,
  type GridColumn,
  type GridRow,
} from './gridTypes';
import { keyAction } from './gridKeys';
import { issuesInWords } from './issueWords';
import { cellAt, clearedCells, copiedBlock, filledDown, pastedBlock, rangeOf } from './selection';

export type {
  ActiveCell,
  CellChangeRequest,
  CellIssueView,
  DataGridHandle,
  GridColumn,
  GridRow,
} from './gridTypes';

interface Props {
  columns: GridColumn[];
  rows: readonly GridRow[];
  /** Issues of a cell, by row key and column index. */
  issuesOf(key: number, column: number): CellIssueView[] | undefined;
  onChange(changes: CellChangeRequest[], label: string): void;
  /** Rows pasted past the end become new rows. */
  onAppendRows?(cells: string[][]): void;
  onActiveChange?(active: ActiveCell | null): void;
  /** Undo, redo, find: handled by the owner of the data. */
  onCommand?(
    command: 'undo' | 'redo' | 'find' | 'next-error' | 'previous-error' | 'delete-rows' | 'insert-row',
  ): void;
  ariaLabel: string;
  height?: number | string;
}

/**
 * A spreadsheet-like grid that stays smooth at 100,000 rows: only the rows in view are rendered.
 * Keyboard: arrows, Tab, Home/End, PageUp/PageDown, Ctrl+Home/End; Shift extends the selection;
 * Enter or F2 edits, typing replaces, Escape cancels; Delete clears; Ctrl+C/V copy and paste blocks
 * to and from Excel; Ctrl+D fills down; Ctrl+Z/Y undo and redo; Ctrl+F finds; F8 / Shift+F8 jump
 * to the next or previous error.
 */
export const DataGrid = forwardRef<DataGridHandle, Props>(function DataGrid(props, ref) {
  const { columns, rows, issuesOf, onChange, onAppendRows, onActiveChange, onCommand, ariaLabel } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<HTMLInputElement>(null);
  const [active, setActiveState] = useState<ActiveCell>({ row: 0, col: 0 });
  const [anchor, setAnchor] = useState<ActiveCell>({ row: 0, col: 0 });
  const [editing, setEditing] = useState<{ value: string } | null>(null);

  const rowCount = rows.length;
  const colCount = columns.length;
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  // One array for as long as the columns stay: rows are memoised and compare it by identity, so a new
  // array on every render would render every row on screen again after each edit.
  const widths = useMemo(() => columns.map((c) => c.width ?? DEFAULT_WIDTH), [columns]);
  const totalWidth = NUMBER_WIDTH + widths.reduce((a, b) => a + b, 0);
  /** Focus to the grid, unless it has it already (focusing costs a style pass even then). */
  const focusGrid = useCallback(() => {
    const grid = scrollRef.current;
    if (grid && document.activeElement !== grid) grid.focus();
  }, []);
  const clampRow = (r: number) => Math.max(0, Math.min(rowCount - 1, r));
  const clampCol = (c: number) => Math.max(0, Math.min(colCount - 1, c));

  const setActive = useCallback(
    (next: ActiveCell, extend = false) => {
      setActiveState(next);
      if (!extend) setAnchor(next);
      onActiveChange?.(next);
      const box = scrollRef.current;
      const header = box?.querySelector<HTMLElement>('.dg-head');
      const to = box
        ? scrollTopToShow({
            scrollTop: box.scrollTop,
            clientHeight: box.clientHeight,
            headerHeight: header?.offsetHeight ?? 0,
            rowIndex: next.row,
            rowHeight: ROW_HEIGHT,
          })
        : null;
      if (to !== null && box) box.scrollTop = to;
      // Sideways too: in a narrow window the columns are wider than the box.
      const across = box
        ? scrollLeftToShow({
            scrollLeft: box.scrollLeft,
            clientWidth: box.clientWidth,
            widths: [NUMBER_WIDTH, ...widths],
            index: next.col + 1,
          })
        : null;
      if (across !== null && box) box.scrollLeft = across;
    },
    [onActiveChange, widths],
  );

  useImperativeHandle(
    ref,
    () => ({
      goTo(rowIndex, column) {
        setActive({ row: clampRow(rowIndex), col: clampCol(column) });
        scrollRef.current?.focus();
      },
      focus() {
        scrollRef.current?.focus();
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setActive, rowCount, colCount],
  );

  const selection = rangeOf(anchor, active);
  const valueAt = (r: number, c: number) => cellAt(rows, r, c);

  /** Set while a commit moves the focus: the editor's blur that this causes is not a second commit. */
  const committing = useRef(false);

  function commit(value: string, move: { dr: number; dc: number }) {
    if (committing.current) return;
    committing.current = true;
    try {
      const row = rows[active.row];
      if (row && value !== valueAt(active.row, active.col)) {
        onChange(
          [{ key: row.key, column: active.col, value }],
          `Edit ${columns[active.col]?.header ?? 'cell'}`,
        );
      }
      setEditing(null);
      setActive({ row: clampRow(active.row + move.dr), col: clampCol(active.col + move.dc) });
      focusGrid();
    } finally {
      committing.current = false;
    }
  }

  function clearSelection() {
    const changes = clearedCells(rows, selection);
    if (changes.length)
      onChange(changes, changes.length === 1 ? 'Clear cell' : `Clear ${changes.length} cells`);
  }

  function fillDown() {
    const changes = filledDown(rows, selection);
    if (changes.length) onChange(changes, `Fill down ${count(changes.length, 'cell')}`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (editing) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const key = {
      key: event.key,
      ctrl: event.ctrlKey || event.metaKey,
      shift: event.shiftKey,
      alt: event.altKey,
    };
    const { action, prevent } = keyAction(key, active, { rowCount, colCount, page });
    if (prevent) event.preventDefault();
    if (!action) return;
    switch (action.kind) {
      case 'move':
        return setActive(action.to, action.extend);
      case 'edit':
        return setEditing({ value: action.value ?? valueAt(active.row, active.col) });
      case 'clear':
        return clearSelection();
      case 'fill-down':
        return fillDown();
      case 'select-all':
        setAnchor({ row: 0, col: 0 });
        return setActiveState({ row: rowCount - 1, col: colCount - 1 });
      case 'command':
        return onCommand?.(action.command);
    }
  }

  function onCopy(event: ClipboardEvent<HTMLDivElement>) {
    if (editing) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', toTsv(copiedBlock(rows, selection)));
  }

  function onCut(event: ClipboardEvent<HTMLDivElement>) {
    if (editing) return;
    onCopy(event);
    clearSelection();
  }

  function onPaste(event: ClipboardEvent<HTMLDivElement>) {
    if (editing) return;
    event.preventDefault();
    const block = fromTsv(event.clipboardData.getData('text/plain'));
    if (block.length === 0) return;
    const { changes, overflow } = pastedBlock(rows, selection, colCount, block);
    if (overflow.length) onAppendRows?.(overflow);
    if (changes.length) onChange(changes, `Paste ${count(changes.length, 'cell')}`);
  }

  function onCellMouseDown(event: MouseEvent, row: number, col: number) {
    if (editing) commit(editorRef.current?.value ?? editing.value, { dr: 0, dc: 0 });
    setActive({ row, col }, event.shiftKey);
  }

  // Rows are memoised: their handlers must keep one identity, so they go through this ref.
  const latest = useRef({ onCellMouseDown, setEditing, commit, cancelEdit: () => undefined as void });
  // Runs after every render on purpose, so the ref always holds this render's handlers.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    latest.current = {
      onCellMouseDown,
      setEditing,
      commit,
      cancelEdit: () => {
        setEditing(null);
        scrollRef.current?.focus();
      },
    };
  });
  const cellEvents = useMemo<CellEvents>(
    () => ({
      mouseDown: (e, r, c) => latest.current.onCellMouseDown(e, r, c),
      startEdit: (value) => latest.current.setEditing({ value }),
      commit: (value, move) => latest.current.commit(value, move),
      cancel: () => latest.current.cancelEdit(),
    }),
    [],
  );
  const headers = useMemo(() => columns.map((c) => c.header), [columns]);

  const activeIssues = rows[active.row] ? issuesOf(rows[active.row]!.key, active.col) : undefined;
  const activeId = rowCount ? `grid-cell-${active.row}-${active.col}` : undefined;

  return (
    <div className="dg-frame">
      <div
        ref={scrollRef}
        role="grid"
        aria-label={ariaLabel}
        aria-rowcount={rowCount + 1}
        aria-colcount={colCount + 1}
        aria-multiselectable="true"
        aria-activedescendant={editing ? undefined : activeId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onCopy={onCopy}
        onCut={onCut}
        onPaste={onPaste}
        data-testid="data-grid"
        className="dg-scroll"
        style={{ height: props.height ?? 480 }}
      >
        <GridHeader columns={columns} widths={widths} totalWidth={totalWidth} />
        <div
          role="rowgroup"
          className="dg-body"
          style={{ height: virtualizer.getTotalSize(), width: totalWidth }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const r = item.index;
            const issues = columns.map((_, c) => issuesOf(row.key, c));
            const inSelection = r >= selection.top && r <= selection.bottom;
            return (
              <GridRowView
                key={row.key}
                row={row}
                index={r}
                top={item.start}
                widths={widths}
                headers={headers}
                issues={issues}
                issuesKey={issues
                  .map((list) => (list ? list.map((i) => i.severity + i.message).join('|') : ''))
                  .join('\u0001')}
                activeCol={r === active.row ? active.col : -1}
                selLeft={inSelection ? selection.left : -1}
                selRight={inSelection ? selection.right : -1}
                editing={r === active.row ? editing : null}
                editorRef={editorRef}
                events={cellEvents}
              />
            );
          })}
        </div>
      </div>
      {/* Not a live region: a screen reader hears the active cell (and its problems, in its
          description) through aria-activedescendant; what an edit changed is announced by the
          screen that owns the data, once. */}
      <div data-testid="grid-status" className="dg-status">
        {rowCount === 0
          ? 'No rows to show.'
          : `${columns[active.col]?.header ?? ''}, row ${rows[active.row]?.rowNumber ?? 'new'}: ${
              activeIssues?.length ? issuesInWords(activeIssues) : 'no problems'
            }`}
      </div>
    </div>
  );
});
