import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  LOCATION_TARGETS,
  mappingProblems,
  targetLabel,
  type LocationMapping,
  type LocationTarget,
} from '../../../../shared/locations';

interface Props {
  headers: string[];
  samples: string[][];
  mapping: LocationMapping;
  onChange(mapping: LocationMapping): void;
  onConfirm(): void;
  onCancel(): void;
}

const NOT_USED = '';

function targetOfColumn(mapping: LocationMapping, column: number): LocationTarget | '' {
  const found = (Object.entries(mapping) as [LocationTarget, number][]).find(([, c]) => c === column);
  return found ? found[0] : NOT_USED;
}

/** Which column holds which location field: matched from the headers, every choice can be changed. */
export function LocationMappingStep({ headers, samples, mapping, onChange, onConfirm, onCancel }: Props) {
  const problems = mappingProblems(mapping);

  function choose(column: number, target: LocationTarget | '') {
    const next: LocationMapping = {};
    for (const [t, c] of Object.entries(mapping) as [LocationTarget, number][]) {
      if (c !== column && t !== target) next[t] = c;
    }
    if (target) next[target] = column;
    onChange(next);
  }

  return (
    <Stack spacing={2}>
      <Typography variant="h2" sx={{ fontSize: '1.4rem' }}>
        Match the columns
      </Typography>
      <Typography color="textSecondary">
        Columns were matched by their headers. Check each one; columns left “not used” are ignored. Tags are
        written as Name=Value pairs separated by semicolons. An Action column with “remove” removes that
        location.
      </Typography>
      <Paper variant="outlined">
        <Table size="small" aria-label="Column mapping">
          <TableHead>
            <TableRow>
              <TableCell>Column in the file</TableCell>
              <TableCell>Example</TableCell>
              <TableCell>Location field</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {headers.map((header, column) => (
              <TableRow key={column}>
                <TableCell>{header || `(column ${column + 1})`}</TableCell>
                <TableCell
                  sx={{
                    color: 'text.secondary',
                    maxWidth: 240,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                  }}
                >
                  {samples.find((s) => (s[column] ?? '').trim())?.[column] ?? ''}
                </TableCell>
                <TableCell>
                  <TextField
                    select
                    size="small"
                    label={`Field for “${header || `column ${column + 1}`}”`}
                    value={targetOfColumn(mapping, column)}
                    onChange={(e) => choose(column, e.target.value as LocationTarget | '')}
                    // "Not used" is shown as a choice, not as an empty box under its label.
                    slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                    sx={{ minWidth: 260 }}
                  >
                    <MenuItem value={NOT_USED}>Not used</MenuItem>
                    {LOCATION_TARGETS.map((t) => (
                      <MenuItem key={t} value={t}>
                        {targetLabel(t)}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      {problems.length > 0 && (
        <Alert severity="warning" role="status">
          {problems.map((p) => (
            <div key={p}>{p}</div>
          ))}
        </Alert>
      )}
      <Stack direction="row" spacing={1}>
        <Button variant="contained" disabled={problems.length > 0} onClick={onConfirm}>
          Use this mapping
        </Button>
        <Button variant="outlined" onClick={onCancel}>
          Cancel
        </Button>
      </Stack>
    </Stack>
  );
}
