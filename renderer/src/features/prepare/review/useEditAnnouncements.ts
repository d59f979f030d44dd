import { useCallback, useEffect, useRef } from 'react';
import { announce } from '../../../app/announce';
import type { CellIssueView } from '../../../components/grid/gridTypes';
import { editResultWords, invalidRowsWords, type EditedCell } from './editWords';

/**
 * Says, once, what a change did: after an edit of one cell, that cell's result and the rows left
 * with errors; after any other change the person made (undo, paste, replace, a row deleted), the
 * count of rows with errors if it changed. Said when the rows' counts are worked out again (a new
 * `counts` object, made after the edit's check; the largest recipients, worked out later, keep it),
 * so the count is the one the screen shows.
 */
/** How long the counts must stay the same before an edit's result is said. */
const SETTLE_MS = 300;

export function useEditAnnouncements(
  counts: unknown,
  invalid: number,
  issuesOf: (key: number, column: number) => CellIssueView[] | undefined,
) {
  const edited = useRef<EditedCell | null>(null);
  const changed = useRef(false);
  const lastInvalid = useRef<number | null>(null);
  const latestIssuesOf = useRef(issuesOf);
  const latestInvalid = useRef(invalid);
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    latestIssuesOf.current = issuesOf;
    latestInvalid.current = invalid;
  });
  useEffect(
    () => () => {
      if (settle.current) clearTimeout(settle.current);
    },
    [],
  );

  useEffect(() => {
    if (!edited.current && !changed.current) {
      lastInvalid.current = invalid;
      return;
    }
    // The counts may be worked out in steps (the row's own checks, then the file's, such as the
    // usual amount): said once they have settled, so the count said is the one the screen ends on.
    if (settle.current) clearTimeout(settle.current);
    settle.current = setTimeout(() => {
      settle.current = null;
      const cell = edited.current;
      const now = latestInvalid.current;
      if (cell) {
        announce(editResultWords(cell, latestIssuesOf.current(cell.key, cell.column), now));
      } else if (changed.current && lastInvalid.current !== null && lastInvalid.current !== now) {
        announce(`${invalidRowsWords(now)[0]!.toUpperCase()}${invalidRowsWords(now).slice(1)}.`);
      }
      edited.current = null;
      changed.current = false;
      lastInvalid.current = now;
    }, SETTLE_MS);
    // The counts' identity marks a new count; invalid alone may stay the same.
  }, [counts]); // eslint-disable-line react-hooks/exhaustive-deps

  /** The person changed one cell (before the change is made, with the cell's problems then). */
  const cellEdited = useCallback((cell: EditedCell) => {
    edited.current = cell;
    changed.current = true;
  }, []);
  /** The person changed the rows some other way. */
  const rowsChanged = useCallback(() => {
    edited.current = null;
    changed.current = true;
  }, []);
  return { cellEdited, rowsChanged };
}
