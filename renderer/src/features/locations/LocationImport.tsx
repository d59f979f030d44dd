import { useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { BatchItem, BatchOutcome } from '../../../../shared/contract/locationChannels';
import {
  suggestLocationMapping,
  targetOfServiceField,
  targetLabel,
  validateLocationRows,
  type LocationMapping,
  type LocationRowResult,
  type LocationTarget,
} from '../../../../shared/locations';
import { desk } from '../../app/deskClient';
import { FileOpener, type OpenedFile } from '../prepare/FileOpener';
import { DataGrid, type CellIssueView, type GridColumn, type GridRow } from '../../components/grid/DataGrid';
import { EditHistory } from '../../lib/editHistory';
import { LocationMappingStep } from './LocationMappingStep';
import { count, plural } from '../../../../shared/i18n';

interface Props {
  /** Reference ids already in the local register: their rows become updates. */
  knownReferenceIds: ReadonlySet<string>;
  onChanged(): void;
  onClose(): void;
}

interface RowState {
  status: 'applied' | 'failed' | 'notApplied';
  op: string | null;
  errors: { target: LocationTarget | null; message: string }[];
}

/** Rows per call to main; main splits further into batches of at most 1000 operations. */
const SEND_CHUNK = 2000;

const OP_DONE: Record<string, string> = { add: 'Added', update: 'Updated', remove: 'Removed' };

function outcomeState(outcome: BatchOutcome): RowState {
  if (outcome.status === 'applied') return { status: 'applied', op: outcome.op, errors: [] };
  if (outcome.status === 'notApplied') return { status: 'notApplied', op: outcome.op, errors: [] };
  return {
    status: 'failed',
    op: outcome.op,
    errors: outcome.errors.map((e) => ({ target: targetOfServiceField(e.field), message: e.message })),
  };
}

/** Import locations from a sheet: open, map, check, send, see each row's result, fix, send the rest. */
export function LocationImport({ knownReferenceIds, onChanged, onClose }: Props) {
  const [file, setFile] = useState<OpenedFile | null>(null);
  const [rows, setRows] = useState<GridRow[]>([]);
  const [mapping, setMapping] = useState<LocationMapping>({});
  const [mapped, setMapped] = useState(false);
  const [states, setStates] = useState<ReadonlyMap<number, RowState>>(new Map());
  const [sending, setSending] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [applyValid, setApplyValid] = useState(true);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error' | 'info'; text: string } | null>(null);
  /** Undo and redo of the grid's edits (Ctrl+Z, Ctrl+Y), each paste or fill undone whole. */
  const history = useRef(new EditHistory());

  const headers = useMemo(() => file?.result.headers ?? [], [file]);
  const resultColumn = headers.length;

  const checked = useMemo(() => {
    const results = validateLocationRows(
      rows.map((r) => ({ rowNumber: r.rowNumber ?? 0, cells: r.cells })),
      mapping,
    );
    const byRow = new Map<number, LocationRowResult>();
    for (const r of results) byRow.set(r.rowNumber, r);
    return byRow;
  }, [rows, mapping]);

  const rowByKey = useMemo(() => new Map(rows.map((r) => [r.key, r])), [rows]);

  const toSend = rows.flatMap((row) => {
    const result = checked.get(row.rowNumber ?? 0);
    if (!result?.item || states.get(row.key)?.status === 'applied') return [];
    return [{ key: row.key, item: result.item }];
  });
  const withProblems = rows.filter((row) => {
    const result = checked.get(row.rowNumber ?? 0);
    return (result && result.issues.length > 0) || states.get(row.key)?.status === 'failed';
  }).length;
  const removals = toSend.filter((s) => s.item.action === 'remove').length;

  function columnOf(target: LocationTarget | null): number {
    if (target === null) return resultColumn;
    return mapping[target] ?? resultColumn;
  }

  function resultText(row: GridRow): string {
    const state = states.get(row.key);
    if (state?.status === 'applied') return OP_DONE[state.op ?? ''] ?? 'Done';
    if (state?.status === 'failed') return `Refused: ${state.errors[0]?.message ?? 'see the cells'}`;
    if (state?.status === 'notApplied') return 'Not applied (another row was refused)';
    const result = checked.get(row.rowNumber ?? 0);
    if (!result) return '';
    if (result.issues.length) return `${count(result.issues.length, 'problem')} to fix`;
    return describeItem(result.item);
  }

  function describeItem(item: BatchItem | null): string {
    if (!item) return '';
    if (item.action === 'remove') return 'Ready to remove';
    return knownReferenceIds.has(item.location.referenceId ?? '') ? 'Ready to update' : 'Ready to add';
  }

  const columns: GridColumn[] = [
    ...headers.map((header, column) => {
      const target = (Object.entries(mapping) as [LocationTarget, number][]).find(
        ([, c]) => c === column,
      )?.[0];
      return { header: header || `Column ${column + 1}`, ...(target ? { target: targetLabel(target) } : {}) };
    }),
    { header: 'Result', width: 320 },
  ];
  const gridRows: GridRow[] = rows.map((row) => ({ ...row, cells: [...row.cells, resultText(row)] }));

  function issuesOf(key: number, column: number): CellIssueView[] | undefined {
    const row = rowByKey.get(key);
    if (!row) return undefined;
    const issues: CellIssueView[] = [];
    const state = states.get(key);
    if (state?.status === 'failed') {
      for (const e of state.errors)
        if (columnOf(e.target) === column) issues.push({ severity: 'error', message: e.message });
    }
    for (const i of checked.get(row.rowNumber ?? 0)?.issues ?? []) {
      if (columnOf(i.target) === column) issues.push({ severity: 'error', message: i.message });
    }
    return issues.length ? issues : undefined;
  }

  function setCells(edits: ReadonlyArray<{ key: number; column: number; value: string }>) {
    const touched = new Set(edits.map((c) => c.key));
    setRows((current) =>
      current.map((row) => {
        if (!touched.has(row.key)) return row;
        const cells = [...row.cells];
        for (const c of edits) if (c.key === row.key) cells[c.column] = c.value;
        return { ...row, cells };
      }),
    );
    // An edited row's refusal is about the old values; it is judged again when sent.
    setStates((current) => {
      const next = new Map(current);
      for (const key of touched) if (next.get(key)?.status !== 'applied') next.delete(key);
      return next;
    });
  }

  function opened(next: OpenedFile) {
    history.current = new EditHistory();
    setFile(next);
    setRows(next.result.rows.map((r, i) => ({ key: i, rowNumber: r.rowNumber, cells: [...r.cells] })));
    setMapping(suggestLocationMapping(next.result.headers));
    setMapped(false);
    setStates(new Map());
    setNotice(null);
  }

  async function send() {
    if (toSend.length === 0) return;
    setSending(true);
    setNotice(null);
    const next = new Map(states);
    let applied = 0;
    let failed = 0;
    let stopped: string | null = null;
    // Large sheets go in parts, so one call stays small and the progress bar moves.
    for (let at = 0; at < toSend.length; at += SEND_CHUNK) {
      const part = toSend.slice(at, at + SEND_CHUNK);
      setProgress({ done: at, total: toSend.length });
      const result = await desk['locations.batch']({ items: part.map((s) => s.item), applyValid });
      if (!result.ok) {
        stopped = result.error.message;
        break;
      }
      result.value.outcomes.forEach((outcome, i) => {
        next.set(part[i]!.key, outcomeState(outcome));
        if (outcome.status === 'applied') applied += 1;
        else failed += 1;
      });
    }
    setSending(false);
    setProgress(null);
    setStates(next);
    if (applied) onChanged();
    if (stopped) {
      setNotice({
        severity: 'error',
        text: `${applied ? `${count(applied, 'row')} ${plural(applied, { one: 'was', other: 'were' })} applied, then: ` : ''}${stopped}`,
      });
      return;
    }
    setNotice(
      failed === 0
        ? {
            severity: 'success',
            text: applied === 1 ? 'The row was applied.' : `All ${applied} rows were applied.`,
          }
        : {
            severity: 'error',
            text: `${count(applied, 'row')} ${plural(applied, { one: 'was', other: 'were' })} applied; ${failed} ${plural(failed, { one: 'needs', other: 'need' })} fixing. The refused cells are marked: fix them and send again (only rows not yet applied are sent).`,
          },
    );
  }

  if (!file) {
    return (
      <Stack spacing={2}>
        <Typography variant="h2" sx={{ fontSize: '1.4rem' }}>
          Import locations from a spreadsheet
        </Typography>
        <FileOpener onOpened={opened} />
        <Button sx={{ alignSelf: 'flex-start' }} onClick={onClose}>
          Back to the locations
        </Button>
      </Stack>
    );
  }

  if (!mapped) {
    return (
      <LocationMappingStep
        headers={headers}
        samples={rows.slice(0, 20).map((r) => r.cells)}
        mapping={mapping}
        onChange={setMapping}
        onConfirm={() => setMapped(true)}
        onCancel={() => setFile(null)}
      />
    );
  }

  return (
    <Stack spacing={2}>
      <Typography variant="h2" sx={{ fontSize: '1.4rem' }}>
        {file.fileName}: {count(rows.length, 'row')}
      </Typography>
      <Typography color="textSecondary" role="status" data-testid="import-summary">
        {count(toSend.length, 'row')} ready to send
        {removals ? ` (${removals} to remove)` : ''}; {withProblems} with problems.
      </Typography>
      {notice && (
        <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </Alert>
      )}
      {sending && (
        <LinearProgress
          aria-label="Sending the locations"
          variant={progress && progress.total > SEND_CHUNK ? 'determinate' : 'indeterminate'}
          value={progress ? (progress.done / progress.total) * 100 : 0}
        />
      )}
      <DataGrid
        ariaLabel={`Locations in ${file.fileName}`}
        columns={columns}
        rows={gridRows}
        issuesOf={issuesOf}
        onChange={(changes, label) => {
          const edits = changes.filter((c) => c.column < resultColumn);
          if (!edits.length) return;
          history.current.record({
            kind: 'cells',
            label,
            changes: edits.map((c) => ({
              key: c.key,
              column: c.column,
              before: rowByKey.get(c.key)?.cells[c.column] ?? '',
              after: c.value,
            })),
          });
          setCells(edits);
        }}
        onCommand={(command) => {
          if (command !== 'undo' && command !== 'redo') return;
          const step = command === 'undo' ? history.current.undo() : history.current.redo();
          if (step?.kind !== 'cells') return;
          setCells(
            step.changes.map((c) => ({
              key: c.key,
              column: c.column,
              value: command === 'undo' ? c.before : c.after,
            })),
          );
          setNotice({
            severity: 'info',
            text: `${command === 'undo' ? 'Undone' : 'Redone'}: ${step.label}.`,
          });
        }}
        height={Math.min(480, 80 + rows.length * 32)}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Button variant="contained" disabled={sending || toSend.length === 0} onClick={() => void send()}>
          {toSend.length === 0
            ? 'Nothing to send'
            : `Send ${count(toSend.length, 'row')}${removals ? `, removing ${removals}` : ''}`}
        </Button>
        <FormControlLabel
          control={<Switch checked={applyValid} onChange={(e) => setApplyValid(e.target.checked)} />}
          label="Apply the valid rows when the service refuses some"
        />
        <Button onClick={() => setMapped(false)}>Change the mapping</Button>
        <Button onClick={onClose}>Done</Button>
      </Stack>
      <Typography variant="body2" color="textSecondary">
        Rows with problems are not sent; fix a cell with Enter or a double click, undo and redo with Ctrl+Z
        and Ctrl+Y. Rows already applied are never sent twice.
      </Typography>
    </Stack>
  );
}
