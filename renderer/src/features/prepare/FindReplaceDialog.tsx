import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WorkspaceRow } from '../../../../shared/contract';
import type { CellEdit } from './model/useWorkspaceModel';
import { count } from '../../../../shared/i18n';

interface Props {
  open: boolean;
  headers: string[];
  rows: readonly WorkspaceRow[];
  /** Position of the active cell, where "Find next" starts. */
  from: { row: number; col: number };
  onClose(): void;
  onFound(row: number, col: number): void;
  onReplace(edits: CellEdit[], label: string): void;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Find and replace across the grid or one column; "Replace all" is one step to undo. */
export function FindReplaceDialog({ open, headers, rows, from, onClose, onFound, onReplace }: Props) {
  const [find, setFind] = useState('');
  const [replace, setReplace] = useState('');
  const [column, setColumn] = useState(-1);
  const [matchCase, setMatchCase] = useState(false);
  const [wholeCell, setWholeCell] = useState(false);
  const [note, setNote] = useState('');

  const pattern = () =>
    new RegExp(wholeCell ? `^${escapeRegExp(find)}$` : escapeRegExp(find), matchCase ? 'g' : 'gi');
  const columns = () => (column >= 0 ? [column] : headers.map((_, i) => i));

  function findNext() {
    if (!find) return;
    const cols = columns();
    const total = rows.length * cols.length;
    const start = from.row * cols.length + Math.max(0, cols.indexOf(from.col)) + 1;
    for (let step = 0; step < total; step++) {
      const at = (start + step) % total;
      const r = Math.floor(at / cols.length);
      const c = cols[at % cols.length] as number;
      if (pattern().test(rows[r]?.cells[c] ?? '')) {
        setNote('');
        onFound(r, c);
        return;
      }
    }
    setNote(`“${find}” was not found.`);
  }

  function replaceAll() {
    if (!find) return;
    const edits: CellEdit[] = [];
    for (const row of rows) {
      for (const c of columns()) {
        const value = row.cells[c] ?? '';
        const next = value.replace(pattern(), () => replace);
        if (next !== value) edits.push({ key: row.key, column: c, value: next });
      }
    }
    if (edits.length) onReplace(edits, `Replace ${count(edits.length, 'cell')}`);
    setNote(
      edits.length
        ? `Replaced in ${count(edits.length, 'cell')}. Undo with Ctrl+Z.`
        : `“${find}” was not found.`,
    );
  }

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="find-title" maxWidth="sm" fullWidth>
      <DialogTitle id="find-title">Find and replace</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Find"
            value={find}
            autoFocus
            onChange={(e) => setFind(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                findNext();
              }
            }}
          />
          <TextField label="Replace with" value={replace} onChange={(e) => setReplace(e.target.value)} />
          <TextField select label="In" value={column} onChange={(e) => setColumn(Number(e.target.value))}>
            <MenuItem value={-1}>Every column</MenuItem>
            {headers.map((h, i) => (
              <MenuItem key={i} value={i}>
                {h}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction="row">
            <FormControlLabel
              control={<Checkbox checked={matchCase} onChange={(e) => setMatchCase(e.target.checked)} />}
              label="Match case"
            />
            <FormControlLabel
              control={<Checkbox checked={wholeCell} onChange={(e) => setWholeCell(e.target.checked)} />}
              label="Whole cell"
            />
          </Stack>
          <Typography role="status" aria-live="polite" color="textSecondary">
            {note}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" onClick={findNext} disabled={!find}>
          Find next
        </Button>
        <Button onClick={replaceAll} disabled={!find}>
          Replace all
        </Button>
        <Button variant="text" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
