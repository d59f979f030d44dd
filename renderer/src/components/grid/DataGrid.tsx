import {
  forwardRef,
  memo,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type RefObject,
  type ClipboardEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import './grid.css';
import { fromTsv, toTsv } from './clipboard';
import { count } from '../../../../shared/i18n';

export interface GridColumn {
  header: string;
  /** What the column is mapped to, shown under the header (e.g. "Amount"). */
  target?: string;
  width?: number;
}

export interface GridRow {
  key: number;
  rowNumber: number | null;
  cells: string[];
}

export interface CellIssueView {
  severity: 'error' | 'warning';
  message: string;
}

export interface CellChangeRequest {
  key: number;
  column: number;
  value: string;
}

export interface DataGridHandle {
  /** Moves the active cell (and the keyboard focus) to a row index and column, scrolling it into view. */
  goTo(rowIndex: number, column: number): void;
  focus(): void;
}

export interface ActiveCell {
  row: number;
  col: number;
}

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

const ROW_HEIGHT = 32;
const NUMBER_WIDTH = 64;
const DEFAULT_WIDTH = 160;

interface Range {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

function rangeOf(a: ActiveCell, b: ActiveCell): Range {
  return {
    top: Math.min(a.row, b.row),
    bottom: Math.max(a.row, b.row),
    left: Math.min(a.col, b.col),
    right: Math.max(a.col, b.col),
  };
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
      virtualizer.scrollToIndex(next.row, { align: 'auto' });
    },
    [onActiveChange, virtualizer],
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
  const valueAt = (r: number, c: number) => rows[r]?.cells[c] ?? '';

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
    const changes: CellChangeRequest[] = [];
    for (let r = selection.top; r <= selection.bottom; r++) {
      const row = rows[r];
      if (!row) continue;
      for (let c = selection.left; c <= selection.right; c++) {
        if (valueAt(r, c) !== '') changes.push({ key: row.key, column: c, value: '' });
      }
    }
    if (changes.length)
      onChange(changes, changes.length === 1 ? 'Clear cell' : `Clear ${changes.length} cells`);
  }

  function fillDown() {
    if (selection.bottom === selection.top) return;
    const changes: CellChangeRequest[] = [];
    for (let c = selection.left; c <= selection.right; c++) {
      const value = valueAt(selection.top, c);
      for (let r = selection.top + 1; r <= selection.bottom; r++) {
        const row = rows[r];
        if (row && valueAt(r, c) !== value) changes.push({ key: row.key, column: c, value });
      }
    }
    if (changes.length) onChange(changes, `Fill down ${count(changes.length, 'cell')}`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (editing) return;
    const ctrl = event.ctrlKey || event.metaKey;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const move = (dr: number, dc: number, extend = event.shiftKey) => {
      event.preventDefault();
      setActive({ row: clampRow(active.row + dr), col: clampCol(active.col + dc) }, extend);
    };
    if (rowCount === 0) {
      if (ctrl && event.key.toLowerCase() === 'z') onCommand?.(event.shiftKey ? 'redo' : 'undo');
      return;
    }
    switch (event.key) {
      case 'ArrowUp':
        return move(ctrl ? -rowCount : -1, 0);
      case 'ArrowDown':
        return move(ctrl ? rowCount : 1, 0);
      case 'ArrowLeft':
        return move(0, ctrl ? -colCount : -1);
      case 'ArrowRight':
        return move(0, ctrl ? colCount : 1);
      case 'PageUp':
        return move(-page, 0);
      case 'PageDown':
        return move(page, 0);
      case 'Home':
        event.preventDefault();
        return setActive({ row: ctrl ? 0 : active.row, col: 0 }, event.shiftKey);
      case 'End':
        event.preventDefault();
        return setActive({ row: ctrl ? rowCount - 1 : active.row, col: colCount - 1 }, event.shiftKey);
      case 'Tab':
        // Tab leaves the grid at its edges, so keyboard users are never trapped.
        if ((event.shiftKey && active.col === 0) || (!event.shiftKey && active.col === colCount - 1)) return;
        return move(0, event.shiftKey ? -1 : 1, false);
      case 'Enter':
      case 'F2':
        event.preventDefault();
        setEditing({ value: valueAt(active.row, active.col) });
        return;
      case 'Delete':
      case 'Backspace':
        event.preventDefault();
        clearSelection();
        return;
      case 'F8':
        event.preventDefault();
        onCommand?.(event.shiftKey ? 'previous-error' : 'next-error');
        return;
    }
    if (ctrl) {
      const key = event.key.toLowerCase();
      const commands: Record<string, () => void> = {
        z: () => onCommand?.(event.shiftKey ? 'redo' : 'undo'),
        y: () => onCommand?.('redo'),
        d: fillDown,
        f: () => onCommand?.('find'),
        h: () => onCommand?.('find'),
        a: () => {
          setAnchor({ row: 0, col: 0 });
          setActiveState({ row: rowCount - 1, col: colCount - 1 });
        },
      };
      const command = commands[key];
      if (command) {
        event.preventDefault();
        command();
      }
      return;
    }
    if (event.key.length === 1 && !event.altKey) {
      // Typing over a cell replaces its content, as in a spreadsheet.
      event.preventDefault();
      setEditing({ value: event.key });
    }
  }

  function onCopy(event: ClipboardEvent<HTMLDivElement>) {
    if (editing) return;
    event.preventDefault();
    const block: string[][] = [];
    for (let r = selection.top; r <= selection.bottom; r++) {
      const line: string[] = [];
      for (let c = selection.left; c <= selection.right; c++) line.push(valueAt(r, c));
      block.push(line);
    }
    event.clipboardData.setData('text/plain', toTsv(block));
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
    const changes: CellChangeRequest[] = [];
    const single = block.length === 1 && block[0]?.length === 1;
    const multiSelected = selection.bottom > selection.top || selection.right > selection.left;
    if (single && multiSelected) {
      // One value pasted over a selection fills all of it.
      const value = block[0]?.[0] ?? '';
      for (let r = selection.top; r <= selection.bottom; r++) {
        const row = rows[r];
        if (!row) continue;
        for (let c = selection.left; c <= selection.right; c++) {
          if (valueAt(r, c) !== value) changes.push({ key: row.key, column: c, value });
        }
      }
    } else {
      const overflow: string[][] = [];
      block.forEach((line, i) => {
        const r = selection.top + i;
        const row = rows[r];
        if (!row) {
          const cells = Array.from({ length: colCount }, () => '');
          line.forEach((v, j) => {
            if (selection.left + j < colCount) cells[selection.left + j] = v;
          });
          overflow.push(cells);
          return;
        }
        line.forEach((value, j) => {
          const c = selection.left + j;
          if (c < colCount && valueAt(r, c) !== value) changes.push({ key: row.key, column: c, value });
        });
      });
      if (overflow.length) onAppendRows?.(overflow);
    }
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
        <div role="rowgroup" className="dg-head" style={{ width: totalWidth }}>
          <div role="row" aria-rowindex={1} className="dg-head-row">
            <div
              role="columnheader"
              aria-colindex={1}
              className="dg-colhead dg-rownum-head"
              style={{ width: NUMBER_WIDTH }}
            >
              Row
            </div>
            {columns.map((c, i) => (
              <div
                key={i}
                role="columnheader"
                aria-colindex={i + 2}
                className="dg-colhead"
                style={{ width: widths[i] }}
              >
                <div className="dg-colhead-title" title={c.header}>
                  {c.header}
                </div>
                <div className={c.target ? 'dg-colhead-target' : 'dg-colhead-target dg-unused'}>
                  {c.target ?? 'not used'}
                </div>
              </div>
            ))}
          </div>
        </div>
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
      <div aria-live="polite" data-testid="grid-status" className="dg-status">
        {rowCount === 0
          ? 'No rows to show.'
          : `${columns[active.col]?.header ?? ''}, row ${rows[active.row]?.rowNumber ?? 'new'}: ${
              activeIssues?.length ? activeIssues.map((i) => i.message).join(' ') : 'no problems'
            }`}
      </div>
    </div>
  );
});

interface CellEvents {
  mouseDown(event: MouseEvent, row: number, col: number): void;
  startEdit(value: string): void;
  commit(value: string, move: { dr: number; dc: number }): void;
  cancel(): void;
}

interface RowProps {
  row: GridRow;
  index: number;
  top: number;
  widths: number[];
  headers: string[];
  issues: (CellIssueView[] | undefined)[];
  /** The issues' content as text: rows re-render when it changes, not when the lookup is rebuilt. */
  issuesKey: string;
  activeCol: number;
  selLeft: number;
  selRight: number;
  editing: { value: string } | null;
  editorRef: RefObject<HTMLInputElement | null>;
  events: CellEvents;
}

function sameRow(a: RowProps, b: RowProps): boolean {
  return (
    a.row === b.row &&
    a.index === b.index &&
    a.top === b.top &&
    a.widths === b.widths &&
    a.headers === b.headers &&
    a.issuesKey === b.issuesKey &&
    a.activeCol === b.activeCol &&
    a.selLeft === b.selLeft &&
    a.selRight === b.selRight &&
    a.editing === b.editing &&
    a.events === b.events
  );
}

/** One rendered row. Memoised, so an edit re-renders the rows it touches, not the whole screen. */
const GridRowView = memo(function GridRowView(props: RowProps) {
  const {
    row,
    index: r,
    top,
    widths,
    headers,
    issues,
    activeCol,
    selLeft,
    selRight,
    editing,
    editorRef,
    events,
  } = props;
  return (
    <div
      role="row"
      aria-rowindex={r + 2}
      className="dg-row"
      style={{ height: ROW_HEIGHT, transform: `translateY(${top}px)` }}
    >
      <div role="rowheader" aria-colindex={1} className="dg-rownum" style={{ width: NUMBER_WIDTH }}>
        {row.rowNumber ?? 'new'}
      </div>
      {headers.map((header, c) => {
        const cellIssues = issues[c];
        const error = cellIssues?.some((i) => i.severity === 'error');
        const warning = !error && cellIssues?.some((i) => i.severity === 'warning');
        const isActive = c === activeCol;
        const selected = c >= selLeft && c <= selRight;
        const value = row.cells[c] ?? '';
        const messages = cellIssues?.map((i) => i.message).join(' ');
        let className = 'dg-cell';
        if (error) className += ' dg-error';
        else if (warning) className += ' dg-warning';
        else if (selected) className += ' dg-selected';
        if (isActive) className += ' dg-active';
        return (
          <div
            key={c}
            id={`grid-cell-${r}-${c}`}
            role="gridcell"
            aria-colindex={c + 2}
            aria-selected={selected}
            aria-invalid={error || undefined}
            aria-description={messages || undefined}
            title={messages || undefined}
            data-row={r}
            data-col={c}
            data-state={error ? 'error' : warning ? 'warning' : undefined}
            onMouseDown={(e) => events.mouseDown(e, r, c)}
            onDoubleClick={() => events.startEdit(value)}
            className={className}
            style={{ width: widths[c] }}
          >
            {isActive && editing ? (
              <input
                ref={editorRef}
                className="dg-editor"
                aria-label={`Edit ${header}, row ${row.rowNumber ?? 'new'}`}
                autoFocus
                defaultValue={editing.value}
                onFocus={(e) => {
                  const len = e.currentTarget.value.length;
                  e.currentTarget.setSelectionRange(len, len);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    events.commit(e.currentTarget.value, { dr: e.shiftKey ? -1 : 1, dc: 0 });
                  } else if (e.key === 'Tab') {
                    e.preventDefault();
                    events.commit(e.currentTarget.value, { dr: 0, dc: e.shiftKey ? -1 : 1 });
                  } else if (e.key === 'Escape') {
                    e.preventDefault();
                    events.cancel();
                  }
                  e.stopPropagation();
                }}
                onBlur={(e) => events.commit(e.currentTarget.value, { dr: 0, dc: 0 })}
              />
            ) : (
              value
            )}
          </div>
        );
      })}
    </div>
  );
}, sameRow);
