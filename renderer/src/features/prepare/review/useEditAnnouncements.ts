import { useCallback, useEffect, useRef } from 'react';
import { announce } from '../../../app/announce';
import type { CellIssueView } from '../../../components/grid/gridTypes';
import { usualMoveWords, type UsualMove } from '../model/usualMoves';
import { editResultWords, invalidRowsWords, type EditedCell } from './editWords';

/**
 * Says, once, what a change did: after an edit of one cell, that cell's result and the rows left
 * with errors; after any other change the person made (undo, paste, replace, a row deleted), the
 * count of rows with errors if it changed. Either way, when the change moved the usual amount of a
 * currency and so flagged or cleared rows the person did not touch, that too. Said when the counts
 * are published (a new `counts` object), which happens once per change, after the row checks and
 * the checks across rows both finished, so the count said is the one the screen shows.
 */
export function useEditAnnouncements(
  counts: unknown,
  invalid: number,
  issuesOf: (key: number, column: number) => CellIssueView[] | undefined,
  moves: readonly UsualMove[] = [],
) {
  const edited = useRef<EditedCell | null>(null);
  const changed = useRef(false);
  const lastInvalid = useRef<number | null>(null);

  useEffect(() => {
    if (!edited.current && !changed.current) {
      lastInvalid.current = invalid;
      return;
    }
    const cell = edited.current;
    const moved = moves.map(usualMoveWords).filter(Boolean).join(' ');
    let words = '';
    if (cell) {
      words = editResultWords(cell, issuesOf(cell.key, cell.column), invalid);
    } else if (lastInvalid.current !== null && lastInvalid.current !== invalid) {
      const rows = invalidRowsWords(invalid);
      words = `${rows[0]!.toUpperCase()}${rows.slice(1)}.`;
    }
    const said = [words, moved].filter(Boolean).join(' ');
    if (said) announce(said);
    edited.current = null;
    changed.current = false;
    lastInvalid.current = invalid;
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
