import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Undo from '@mui/icons-material/Undo';
import Redo from '@mui/icons-material/Redo';
import NavigateNext from '@mui/icons-material/NavigateNext';
import NavigateBefore from '@mui/icons-material/NavigateBefore';
import type { Workspace } from '../../../../shared/contract';
import { targetLabel, type MappedIssue } from '../../../../shared/mapping';
import { count, plural } from '../../../../shared/i18n';
import { desk } from '../../app/deskClient';
import { base64ToBytes } from '../../app/bytes';
import {
  DataGrid,
  type ActiveCell,
  type CellIssueView,
  type DataGridHandle,
  type GridColumn,
} from '../../components/grid/DataGrid';
import { FindReplaceDialog } from './FindReplaceDialog';
import { MappingStep } from './MappingStep';
import { SummaryPanel } from './SummaryPanel';
import { withServiceRefusals, type RefusedRow } from './model/serviceRefusals';
import { repairNoteWords } from './repairNote';
import { exportCorrectedSheet, exportInvalidRows } from './exportSheets';
import { downloadBytes } from '../../lib/downloadBytes';
import { useWorkspaceModel, type SaveState } from './model/useWorkspaceModel';
import type { PreparedChecks } from './import/importClient';
import { UploadDialog } from '../uploads/UploadDialog';
import { standingWords } from './standingWords';
import { serviceErrorMessage } from './serviceErrorMessage';
import { RECIPIENT_KEY, type ChosenRecipient } from '../../app/routes';
import { sourceFileLabel } from '../../../../shared/spreadsheet/sourceNames';

interface Props {
  workspace: Workspace;
  /** Every row already checked in the import worker (a new workspace). */
  prepared?: PreparedChecks;
  /** A bulk intent in ERROR whose errors are shown on their cells, to fix and send again. */
  repairIntentId?: string;
  onClose(): void;
}

interface ServiceError {
  rowKey: number | null;
  columnIndex: number | null;
  message: string;
  /** The cell's value when the error was shown: once changed, the error no longer applies to it. */
  value: string | null;
}

/** The open workspace: the grid with every problem on its cell, tools to fix, totals, and exports. */
export function ReviewScreen({ workspace, prepared, repairIntentId, onClose }: Props) {
  const model = useWorkspaceModel(workspace, prepared);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [serviceErrors, setServiceErrors] = useState<ServiceError[] | null>(null);
  const [repairNote, setRepairNote] = useState<string | null>(null);
  // A recipient chosen with "Use as recipient" in Search, offered for the selected cell.
  const [chosen, setChosen] = useState<ChosenRecipient | null>(() => {
    try {
      return JSON.parse(sessionStorage.getItem(RECIPIENT_KEY) ?? 'null') as ChosenRecipient | null;
    } catch {
      return null;
    }
  });

  useEffect(() => {
    if (!repairIntentId) return;
    let live = true;
    void desk['upload.errors']({ intentId: repairIntentId }).then((r) => {
      if (!live) return;
      if (!r.ok) return setRepairNote(r.error.message);
      const byKey = new Map(workspace.rows.map((row) => [row.key, row]));
      setServiceErrors(
        r.value.issues.map((i) => ({
          rowKey: i.rowKey,
          columnIndex: i.columnIndex,
          message: serviceErrorMessage(i),
          value:
            i.rowKey !== null && i.columnIndex !== null
              ? (byKey.get(i.rowKey)?.cells[i.columnIndex] ?? '')
              : null,
        })),
      );
      setRepairNote(repairNoteWords(r.value));
    });
    return () => {
      live = false;
    };
  }, [repairIntentId, workspace.rows]);
  const grid = useRef<DataGridHandle>(null);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [active, setActive] = useState<ActiveCell>({ row: 0, col: 0 });
  const [findOpen, setFindOpen] = useState(false);
  const [editingMapping, setEditingMapping] = useState(false);
  const [exportMenu, setExportMenu] = useState<HTMLElement | null>(null);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error' | 'info'; text: string } | null>(null);

  const serviceKeys = useMemo(() => new Set(serviceErrors?.map((e) => e.rowKey) ?? []), [serviceErrors]);
  const serviceErrorsOf = useCallback(
    (key: number): ServiceError[] => {
      if (!serviceErrors || !serviceKeys.has(key)) return [];
      const row = model.rows.find((r) => r.key === key);
      return serviceErrors.filter(
        (e) => e.rowKey === key && (e.columnIndex === null || (row?.cells[e.columnIndex] ?? '') === e.value),
      );
    },
    [serviceErrors, serviceKeys, model.rows],
  );
  // Rows the app's checks pass but the service refused on a cell, while that cell is unchanged. A
  // problem about a whole donation (a partial extraction's rows not created) needs no change in the
  // row, so it does not make the row invalid.
  const refusedValidRows = useMemo(() => {
    const refused: RefusedRow[] = [];
    for (const key of serviceKeys) {
      if (key === null) continue;
      const result = model.resultOf(key);
      if (!result?.ok || !serviceErrorsOf(key).some((e) => e.columnIndex !== null)) continue;
      refused.push({
        currencyCode: result.donation.funds.currencyCode,
        amount: result.donation.funds.amount,
      });
    }
    return refused;
    // resultsVersion marks a change in what resultOf returns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serviceKeys, serviceErrorsOf, model.resultOf, model.resultsVersion]);
  const summary = useMemo(
    () => withServiceRefusals(model.summary.counts, model.summary.totals, refusedValidRows),
    [model.summary.counts, model.summary.totals, refusedValidRows],
  );
  const rowHasError = useCallback(
    (key: number) => model.isValid(key) === false || serviceErrorsOf(key).length > 0,
    // resultsVersion marks a change in what isValid returns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model.isValid, model.resultsVersion, serviceErrorsOf],
  );
  const visibleRows = useMemo(
    () => (onlyErrors ? model.rows.filter((r) => rowHasError(r.key)) : model.rows),
    [onlyErrors, model.rows, rowHasError],
  );

  const columns: GridColumn[] = useMemo(() => {
    const byHeader = model.mapping?.template.columns ?? {};
    return model.headers.map((header) => {
      const target = byHeader[header];
      const label = target ? targetLabel(target) : undefined;
      return {
        header,
        target: label,
        // Wide enough for the header and for what it is used as ("Receipt wanted (yes/no)"), in its
        // smaller type.
        width: Math.min(260, Math.max(120, header.length * 9 + 40, (label?.length ?? 0) * 7 + 24)),
      };
    });
  }, [model.headers, model.mapping]);

  // A service error about a whole donation (no attribute named) is shown on the row's recipient
  // cell, or its first cell: on a cell, where the grid, F8 and the status line see it.
  const rowErrorColumn = Math.max(
    0,
    model.headers.findIndex((h) => model.mapping?.template.columns[h] === 'recipientId'),
  );
  const issuesOf = useCallback(
    (key: number, column: number): CellIssueView[] | undefined => {
      let found: CellIssueView[] | undefined;
      const add = (issue: MappedIssue) => {
        if (issue.columnIndex !== column) return;
        (found ??= []).push({ severity: issue.severity, message: issue.message });
      };
      model.resultOf(key)?.issues.forEach(add);
      model.fileIssues.get(key)?.forEach(add);
      if (serviceErrors) {
        for (const e of serviceErrorsOf(key)) {
          if ((e.columnIndex ?? rowErrorColumn) === column)
            (found ??= []).push({ severity: 'error', message: e.message });
        }
      }
      return found;
    },
    // resultsVersion marks a change in what resultOf returns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model.resultOf, model.resultsVersion, model.fileIssues, serviceErrors, serviceErrorsOf, rowErrorColumn],
  );

  /** Row-level problems that belong to no column (a missing mapping target, the metadata count). */
  const activeRow = visibleRows[active.row];
  const rowLevel = activeRow
    ? [
        ...[
          ...(model.resultOf(activeRow.key)?.issues ?? []),
          ...(model.fileIssues.get(activeRow.key) ?? []),
        ].filter((i) => i.columnIndex === undefined),
        ...serviceErrorsOf(activeRow.key)
          .filter((e) => e.columnIndex === null)
          .map((e) => ({ severity: 'error' as const, code: 'SERVICE', message: e.message })),
      ]
    : [];
  const fileLevelServiceErrors = serviceErrors?.filter((e) => e.rowKey === null) ?? [];

  const rowHasWarning = (key: number) =>
    model.hasWarning(key) || !!model.fileIssues.get(key)?.some((i) => i.severity === 'warning');

  /**
   * F8 / Shift+F8: the next (previous) row with an error; once no error is left in the grid, the next
   * row with a warning. Errors first, because they stop the upload and warnings do not.
   */
  function jumpToError(direction: 1 | -1) {
    const n = visibleRows.length;
    for (const severity of ['error', 'warning'] as const) {
      for (let step = 1; step <= n; step++) {
        const index = (active.row + direction * step + n) % n;
        const row = visibleRows[index];
        if (!row) continue;
        if (severity === 'error' ? !rowHasError(row.key) : !rowHasWarning(row.key)) continue;
        const issue = [
          ...(model.resultOf(row.key)?.issues ?? []),
          ...(model.fileIssues.get(row.key) ?? []),
        ].find((i) => i.severity === severity && i.columnIndex !== undefined);
        const service = severity === 'error' ? serviceErrorsOf(row.key)[0] : undefined;
        const column = issue?.columnIndex ?? (service ? (service.columnIndex ?? rowErrorColumn) : 0);
        grid.current?.goTo(index, column);
        if (severity === 'warning')
          setNotice({ severity: 'info', text: 'No errors left: F8 now goes through the warnings.' });
        return;
      }
    }
    setNotice({ severity: 'success', text: 'No errors or warnings left.' });
  }

  function addRow() {
    const at = activeRow ? model.rows.indexOf(activeRow) + 1 : model.rows.length;
    model.insertRows(at, [[]]);
    if (!onlyErrors) setTimeout(() => grid.current?.goTo(active.row + 1, 0), 0);
  }

  function deleteActiveRow() {
    if (!activeRow) return;
    model.deleteRows([activeRow.key]);
    setNotice({ severity: 'info', text: `Row ${activeRow.rowNumber ?? '(new)'} deleted. Undo with Ctrl+Z.` });
  }

  /**
   * Main builds uploads and the bulk file from its own copy: every edit on screen must be saved
   * there first. False, with the reason shown, when one could not be.
   */
  async function savedForMain(): Promise<boolean> {
    if (await model.whenSaved()) return true;
    setNotice({
      severity: 'error',
      text: 'Your last changes could not be saved, so nothing was sent or exported. Reopen the workspace to continue.',
    });
    return false;
  }

  async function openUpload() {
    if (await savedForMain()) setUploadOpen(true);
  }

  async function exportBulkFile() {
    setExportMenu(null);
    setNotice({ severity: 'info', text: 'Building the bulk file…' });
    if (!(await savedForMain())) return;
    const result = await desk['workspace.exportBulkFile']({ id: model.id });
    if (!result.ok) return setNotice({ severity: 'error', text: result.error.message });
    downloadBytes(result.value.fileName, base64ToBytes(result.value.base64), 'application/gzip');
    setNotice({
      severity: 'success',
      text: `Bulk file with ${count(result.value.donations, 'donation')} exported${
        result.value.skipped
          ? `; ${count(result.value.skipped, 'row')} with errors ${plural(result.value.skipped, { one: 'was', other: 'were' })} left out`
          : ''
      }.`,
    });
  }

  async function exportInvalid() {
    setExportMenu(null);
    const exported = await exportInvalidRows(
      model.source.fileName,
      model.headers,
      model.rows,
      model.resultOf,
    );
    setNotice({
      severity: 'success',
      text: `${count(exported, 'row')} to fix exported, each with its errors.`,
    });
  }

  async function exportCorrected() {
    setExportMenu(null);
    await exportCorrectedSheet(model.source.fileName, model.source.sheet, model.headers, model.rows);
    setNotice({ severity: 'success', text: 'Corrected sheet exported.' });
  }

  const currentActions = () => ({
    jumpToError,
    addRow,
    deleteActiveRow,
    exportBulkFile,
    exportInvalid,
    exportCorrected,
    openUpload,
    undo: model.undo,
    redo: model.redo,
  });
  const actions = useRef<ReturnType<typeof currentActions> | null>(null);
  useEffect(() => {
    actions.current = currentActions();
  });
  // The toolbar re-renders only when what it shows changes, not on every edit: MUI controls are costly
  // to render, and an edit must reach the screen within a frame. Handlers go through `actions`.
  const { canUndo, canRedo, undoLabel, redoLabel } = model;
  const undoFromToolbar = useCallback(() => actions.current?.undo(), []);
  const redoFromToolbar = useCallback(() => actions.current?.redo(), []);
  const recipientColumn = model.headers.findIndex(
    (h) => model.mapping?.template.columns[h] === 'recipientId',
  );
  const hasActiveRow = !!activeRow;
  const noInvalid = model.summary.counts.invalid === 0;
  const toolbar = useMemo(
    () => (
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        role="toolbar"
        aria-label="Grid tools"
        sx={{ alignItems: 'center', flexWrap: 'wrap' }}
      >
        <FormControlLabel
          control={<Switch checked={onlyErrors} onChange={(e) => setOnlyErrors(e.target.checked)} />}
          label="Only rows with errors"
        />
        <Tooltip title="Previous error; once none is left, previous warning (Shift+F8)">
          <IconButton aria-label="Previous error" onClick={() => actions.current?.jumpToError(-1)}>
            <NavigateBefore />
          </IconButton>
        </Tooltip>
        <Tooltip title="Next error; once none is left, next warning (F8)">
          <IconButton aria-label="Next error" onClick={() => actions.current?.jumpToError(1)}>
            <NavigateNext />
          </IconButton>
        </Tooltip>
        <Divider orientation="vertical" flexItem />
        <UndoRedo
          canUndo={canUndo}
          canRedo={canRedo}
          undoLabel={undoLabel}
          redoLabel={redoLabel}
          onUndo={undoFromToolbar}
          onRedo={redoFromToolbar}
        />
        <Divider orientation="vertical" flexItem />
        <Button variant="outlined" size="small" onClick={() => setFindOpen(true)}>
          Find and replace
        </Button>
        <Button variant="outlined" size="small" onClick={() => actions.current?.addRow()}>
          Add row
        </Button>
        <Button
          variant="outlined"
          size="small"
          onClick={() => actions.current?.deleteActiveRow()}
          disabled={!hasActiveRow}
        >
          Delete row
        </Button>
        <Button variant="outlined" size="small" onClick={() => setEditingMapping(true)}>
          Change mapping
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <Button
          size="small"
          variant="outlined"
          onClick={(e) => setExportMenu(e.currentTarget)}
          aria-haspopup="menu"
        >
          Export
        </Button>
        <Button size="small" onClick={() => void actions.current?.openUpload()}>
          {repairIntentId ? 'Send corrected rows' : 'Upload…'}
        </Button>
        <Menu anchorEl={exportMenu} open={!!exportMenu} onClose={() => setExportMenu(null)}>
          <MenuItem onClick={() => void actions.current?.exportBulkFile()}>
            Bulk file (.json.gz), exactly as it would be uploaded
          </MenuItem>
          <MenuItem onClick={() => void actions.current?.exportInvalid()} disabled={noInvalid}>
            Rows to fix (.xlsx, with an error column)
          </MenuItem>
          <MenuItem onClick={() => void actions.current?.exportCorrected()}>Corrected sheet (.xlsx)</MenuItem>
        </Menu>
      </Stack>
    ),
    [
      onlyErrors,
      canUndo,
      canRedo,
      undoLabel,
      redoLabel,
      hasActiveRow,
      noInvalid,
      exportMenu,
      repairIntentId,
      undoFromToolbar,
      redoFromToolbar,
    ],
  );

  if (editingMapping && model.mapping) {
    return (
      <MappingStep
        headers={model.headers}
        samples={model.rows.slice(0, 5).map((r) => r.cells)}
        suggestion={null}
        initial={model.mapping}
        confirmLabel="Apply and check again"
        onCancel={() => setEditingMapping(false)}
        onConfirm={(mapping, templateName) => {
          model.setMapping(mapping);
          if (templateName) void desk['templates.save']({ name: templateName, template: mapping.template });
          setEditingMapping(false);
        }}
      />
    );
  }

  return (
    <Stack spacing={2}>
      <WorkspaceHeader
        name={model.name}
        standing={workspace.standing}
        rows={model.summary.counts.rows}
        invalid={summary.counts.invalid}
        source={model.source}
        save={model.save}
        onRename={model.rename}
        onClose={onClose}
      />

      <SummaryPanel counts={summary.counts} totals={summary.totals} largest={model.summary.largest} />

      {toolbar}

      {chosen && (
        <Alert
          severity="info"
          action={
            <Stack direction="row" spacing={1}>
              <Button
                size="small"
                onClick={() => {
                  const row = visibleRows[active.row];
                  const column = recipientColumn >= 0 ? recipientColumn : active.col;
                  if (row)
                    model.edit(
                      [{ key: row.key, column, value: chosen.recipientId }],
                      'Use recipient from Search',
                    );
                  sessionStorage.removeItem(RECIPIENT_KEY);
                  setChosen(null);
                }}
              >
                Put it in row {visibleRows[active.row]?.rowNumber ?? 'new'}
              </Button>
              <Button
                size="small"
                variant="text"
                onClick={() => {
                  sessionStorage.removeItem(RECIPIENT_KEY);
                  setChosen(null);
                }}
              >
                Dismiss
              </Button>
            </Stack>
          }
        >
          Recipient {chosen.recipientId} ({chosen.label}) was chosen in Search.
        </Alert>
      )}
      {repairNote && (
        <Alert severity="warning" data-testid="repair-note">
          {repairNote}
          {fileLevelServiceErrors.map((e) => (
            <div key={e.message}>{e.message}</div>
          ))}
        </Alert>
      )}
      {notice && (
        <Alert severity={notice.severity} onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}

      <DataGrid
        ref={grid}
        ariaLabel={`Rows of ${model.name}`}
        columns={columns}
        rows={visibleRows}
        issuesOf={issuesOf}
        onChange={(changes, label) => model.edit(changes, label)}
        onAppendRows={(cells) => model.insertRows(model.rows.length, cells, 'Paste rows')}
        onActiveChange={(a) => a && setActive(a)}
        onCommand={(command) => {
          if (command === 'undo') model.undo();
          else if (command === 'redo') model.redo();
          else if (command === 'find') setFindOpen(true);
          else if (command === 'next-error') jumpToError(1);
          else if (command === 'previous-error') jumpToError(-1);
        }}
        height="calc(100vh - 420px)"
      />
      {rowLevel.length > 0 && (
        <Alert severity={rowLevel.some((i) => i.severity === 'error') ? 'error' : 'warning'}>
          {rowLevel.map((i) => (
            <div key={`${i.code}-${i.message}`}>{i.message}</div>
          ))}
        </Alert>
      )}
      <KeysHelp />

      {uploadOpen && (
        <UploadDialog
          open
          workspaceId={model.id}
          {...(repairIntentId
            ? { resendIntentId: repairIntentId, unchangedRefusals: refusedValidRows.length }
            : {})}
          onClose={() => setUploadOpen(false)}
          onSent={() => {
            setUploadOpen(false);
            window.location.hash = '#/uploads';
          }}
        />
      )}
      <FindReplaceWhenOpen
        open={findOpen}
        headers={model.headers}
        rows={visibleRows}
        from={active}
        onClose={() => {
          setFindOpen(false);
          grid.current?.focus();
        }}
        onFound={(row, col) => grid.current?.goTo(row, col)}
        onReplace={(edits, label) => model.edit(edits, label)}
      />
    </Stack>
  );
}

/**
 * The parts of the screen below re-render only when what they show changes: an edit must reach the
 * screen within a frame, and MUI controls are costly to render again for nothing.
 */
const WorkspaceHeader = memo(function WorkspaceHeader({
  name,
  standing,
  rows,
  invalid,
  source,
  save,
  onRename,
  onClose,
}: {
  name: string;
  standing: Workspace['standing'];
  rows: number;
  invalid: number;
  source: Workspace['source'];
  save: SaveState;
  onRename(name: string): void;
  onClose(): void;
}) {
  return (
    <>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label="Workspace name"
          defaultValue={name}
          onBlur={(e) => e.target.value.trim() && e.target.value !== name && onRename(e.target.value.trim())}
          sx={{ minWidth: 280 }}
        />
        <Typography color="text.secondary">
          {sourceFileLabel(source)} · headers in row {source.headerRow}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <StandingChip standing={standing} rows={rows} invalid={invalid} />
        <Chip
          size="small"
          role="status"
          color={save.status === 'failed' ? 'error' : 'default'}
          label={
            save.status === 'saved' ? 'All changes saved' : save.status === 'saving' ? 'Saving…' : 'Not saved'
          }
        />
        <Button variant="text" onClick={onClose}>
          All workspaces
        </Button>
      </Stack>

      {save.status === 'failed' && (
        <Alert severity="error" role="alert">
          {save.message} Your last changes are still on screen; reopen the workspace to continue.
        </Alert>
      )}
      {source.warnings.length > 0 && (
        <Alert severity="info">
          {source.warnings.map((w) => (
            <div key={w}>{w}</div>
          ))}
        </Alert>
      )}
    </>
  );
});

function StandingChip({
  standing,
  rows,
  invalid,
}: {
  standing: Workspace['standing'];
  rows: number;
  invalid: number;
}) {
  const words = standingWords({ standing, counts: { rows, invalid, valid: rows - invalid, warnings: 0 } });
  return (
    <Tooltip title={words.detail}>
      <Chip
        size="small"
        color={words.color}
        label={words.label}
        aria-description={words.detail}
        data-testid="workspace-standing"
      />
    </Tooltip>
  );
}

const UndoRedo = memo(function UndoRedo({
  canUndo,
  canRedo,
  undoLabel,
  redoLabel,
  onUndo,
  onRedo,
}: {
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: string | undefined;
  redoLabel: string | undefined;
  onUndo(): void;
  onRedo(): void;
}) {
  return (
    <>
      <Tooltip title={undoLabel ? `Undo ${undoLabel} (Ctrl+Z)` : 'Nothing to undo'}>
        <span>
          <IconButton aria-label="Undo" onClick={onUndo} disabled={!canUndo}>
            <Undo />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={redoLabel ? `Redo ${redoLabel} (Ctrl+Y)` : 'Nothing to redo'}>
        <span>
          <IconButton aria-label="Redo" onClick={onRedo} disabled={!canRedo}>
            <Redo />
          </IconButton>
        </span>
      </Tooltip>
    </>
  );
});

const KeysHelp = memo(function KeysHelp() {
  return (
    <Typography variant="body2" color="text.secondary">
      Keys: arrows move · Enter or F2 edits · typing replaces · Delete clears · Ctrl+C / Ctrl+V copy and paste
      blocks with Excel · Ctrl+D fills down · Ctrl+Z / Ctrl+Y undo and redo · Ctrl+F finds · F8 / Shift+F8
      next and previous error, then warning.
    </Typography>
  );
});

/** Find and replace renders nothing new while it stays closed. */
const FindReplaceWhenOpen = memo(FindReplaceDialog, (before, after) => !before.open && !after.open);
