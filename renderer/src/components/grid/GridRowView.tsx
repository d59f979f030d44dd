import { memo, type MouseEvent, type RefObject } from 'react';
import { issuesInWords } from './issueWords';
import { NUMBER_WIDTH, ROW_HEIGHT, type CellIssueView, type GridRow } from './gridTypes';

/** What a cell tells the grid; one object for the grid's life, so memoised rows keep it. */
export interface CellEvents {
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
export const GridRowView = memo(function GridRowView(props: RowProps) {
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
        const messages = cellIssues?.length ? issuesInWords(cellIssues) : undefined;
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
