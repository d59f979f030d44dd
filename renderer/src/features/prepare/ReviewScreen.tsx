import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import type { Workspace } from '../../../../shared/contract';
import { desk } from '../../app/deskClient';
import {
  DataGrid,
  type ActiveCell,
  type CellIssueView,
  type DataGridHandle,
  type GridColumn,
} from '../../components/grid/DataGrid';
import { GRID_HEIGHT } from '../../components/grid/gridTypes';
import { FindReplaceDialog } from './FindReplaceDialog';
import { MappingStep } from './MappingStep';
import { SummaryPanel } from './SummaryPanel';
import { withServiceRefusals } from './model/serviceRefusals';
import { useWorkspaceModel } from './model/useWorkspaceModel';
import type { PreparedChecks } from './import/importClient';
import { UploadDialog } from '../uploads/UploadDialog';
import { GridToolbar, type ToolbarActions } from './review/GridToolbar';
import { KeysHelp } from './review/KeysHelp';
import { RecipientOffer } from './review/RecipientOffer';
import { WorkspaceHeader } from './review/WorkspaceHeader';
import { issuesInColumn, nextProblem, rowLevelIssues } from './review/cellIssues';
import { useChosenRecipient } from './review/chosenRecipient';
import { gridColumns, recipientColumnOf } from './review/gridColumns';
import type { ServiceError } from './review/serviceErrors';
import { useServiceErrors } from './review/useServiceErrors';
import { useWorkspaceExports, type ReviewNotice } from './review/useWorkspaceExports';
import { useEditAnnouncements } from './review/useEditAnnouncements';

/** For cells while no upload is being repaired: one array, not a new one per cell. */
const NO_SERVICE_ERRORS: readonly ServiceError[] = [];

interface Props {
  workspace: Workspace;
  /** Every row already checked in the import worker (a new workspace). */
  prepared?: PreparedChecks;
  /** A bulk intent in ERROR whose errors are shown on their cells, to fix and send again. */
  repairIntentId?: string;
  onClose(): void;
}

/** The open workspace: the grid with every problem on its cell, tools to fix, totals, and exports. */
export function ReviewScreen({ workspace, prepared, repairIntentId, onClose }: Props) {
  const model = useWorkspaceModel(workspace, prepared);
  const [uploadOpen, setUploadOpen] = useState(false);
  const { serviceErrors, repairNote, serviceErrorsOf, refusedValidRows, fileLevelServiceErrors } =
    useServiceErrors(repairIntentId, workspace, model);
  const [chosen, forgetChosen] = useChosenRecipient();
  const grid = useRef<DataGridHandle>(null);
  // The grid with the line under it that explains the active cell: kept in view together.
  const gridArea = useRef<HTMLDivElement>(null);
  const showGridArea = () => gridArea.current?.scrollIntoView({ block: 'nearest' });
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [active, setActive] = useState<ActiveCell>({ row: 0, col: 0 });
  const [findOpen, setFindOpen] = useState(false);
  const [editingMapping, setEditingMapping] = useState(false);
  const [notice, setNotice] = useState<ReviewNotice>(null);
  const exports = useWorkspaceExports(model, setNotice);
  // A workspace opens where the person is about to work: focus goes to the grid (after Check every
  // row, after Fix the rows, after opening it from the list), so F8 and the arrow keys work at once.
  useEffect(() => {
    let frame = 0;
    let tries = 0;
    const focusWhenShown = () => {
      if (grid.current) {
        grid.current.focus();
        // Once what sits above the grid has its height: the grid and its explaining line in view.
        settle = window.setTimeout(showGridArea, 150);
      } else if (tries++ < 120) frame = requestAnimationFrame(focusWhenShown);
    };
    let settle = 0;
    frame = requestAnimationFrame(focusWhenShown);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(settle);
    };
  }, []);

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

  const columns: GridColumn[] = useMemo(
    () => gridColumns(model.headers, model.mapping),
    [model.headers, model.mapping],
  );

  const recipientColumn = recipientColumnOf(model.headers, model.mapping);
  // A service error about a whole donation (no attribute named) is shown on the row's recipient
  // cell, or its first cell: on a cell, where the grid, F8 and the status line see it.
  const rowErrorColumn = Math.max(0, recipientColumn);
  const issuesOf = useCallback(
    (key: number, column: number): CellIssueView[] | undefined =>
      issuesInColumn(
        column,
        model.resultOf(key)?.issues,
        model.fileIssues.get(key),
        serviceErrors ? serviceErrorsOf(key) : NO_SERVICE_ERRORS,
        rowErrorColumn,
      ),
    // resultsVersion marks a change in what resultOf returns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model.resultOf, model.resultsVersion, model.fileIssues, serviceErrors, serviceErrorsOf, rowErrorColumn],
  );

  const { cellEdited, rowsChanged } = useEditAnnouncements(
    model.summary.counts,
    summary.counts.invalid,
    issuesOf,
    model.summary.moves,
  );

  const activeRow = visibleRows[active.row];
  const rowLevel = activeRow
    ? rowLevelIssues(
        model.resultOf(activeRow.key)?.issues,
        model.fileIssues.get(activeRow.key),
        serviceErrorsOf(activeRow.key),
      )
    : [];

  const rowHasWarning = (key: number) =>
    model.hasWarning(key) || !!model.fileIssues.get(key)?.some((i) => i.severity === 'warning');

  function jumpToError(direction: 1 | -1) {
    const found = nextProblem(visibleRows, active.row, direction, {
      hasError: rowHasError,
      hasWarning: rowHasWarning,
      columnOf(key, severity) {
        const issue = [...(model.resultOf(key)?.issues ?? []), ...(model.fileIssues.get(key) ?? [])].find(
          (i) => i.severity === severity && i.columnIndex !== undefined,
        );
        const service = severity === 'error' ? serviceErrorsOf(key)[0] : undefined;
        return issue?.columnIndex ?? (service ? (service.columnIndex ?? rowErrorColumn) : 0);
      },
    });
    if (!found) return setNotice({ severity: 'success', text: 'No errors or warnings left.' });
    grid.current?.goTo(found.index, found.column);
    // Once the line under the grid explains the new cell (it may take two lines).
    requestAnimationFrame(showGridArea);
    if (found.severity === 'warning')
      setNotice({ severity: 'info', text: 'No errors left: F8 now goes through the warnings.' });
  }

  function addRow() {
    const at = activeRow ? model.rows.indexOf(activeRow) + 1 : model.rows.length;
    rowsChanged();
    model.insertRows(at, [[]]);
    if (!onlyErrors) setTimeout(() => grid.current?.goTo(active.row + 1, 0), 0);
  }

  function deleteActiveRow() {
    if (!activeRow) return;
    rowsChanged();
    model.deleteRows([activeRow.key]);
    setNotice({ severity: 'info', text: `Row ${activeRow.rowNumber ?? '(new)'} deleted. Undo with Ctrl+Z.` });
  }

  async function openUpload() {
    if (await exports.savedForMain()) setUploadOpen(true);
  }

  const currentActions = (): ToolbarActions => ({
    jumpToError,
    addRow,
    deleteActiveRow,
    exportBulkFile: exports.exportBulkFile,
    exportInvalid: exports.exportInvalid,
    exportCorrected: exports.exportCorrected,
    openUpload,
    undo: () => {
      rowsChanged();
      model.undo();
    },
    redo: () => {
      rowsChanged();
      model.redo();
    },
    find: () => setFindOpen(true),
    changeMapping: () => setEditingMapping(true),
  });
  const actions = useRef<ToolbarActions | null>(null);
  useEffect(() => {
    actions.current = currentActions();
  });
  const undoFromToolbar = useCallback(() => actions.current?.undo(), []);
  const redoFromToolbar = useCallback(() => actions.current?.redo(), []);

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

      <SummaryPanel
        counts={summary.counts}
        totals={summary.totals}
        largest={model.summary.largest}
        moves={model.summary.moves}
      />

      <GridToolbar
        actions={actions}
        onlyErrors={onlyErrors}
        onOnlyErrors={setOnlyErrors}
        canUndo={model.canUndo}
        canRedo={model.canRedo}
        undoLabel={model.undoLabel}
        redoLabel={model.redoLabel}
        onUndo={undoFromToolbar}
        onRedo={redoFromToolbar}
        hasActiveRow={!!activeRow}
        noInvalid={model.summary.counts.invalid === 0}
        repairIntentId={repairIntentId}
      />

      {chosen && (
        <RecipientOffer
          chosen={chosen}
          rowNumber={visibleRows[active.row]?.rowNumber}
          onPut={() => {
            const row = visibleRows[active.row];
            const column = recipientColumn >= 0 ? recipientColumn : active.col;
            if (row) {
              cellEdited({
                key: row.key,
                column,
                rowNumber: row.rowNumber,
                header: columns[column]?.header ?? '',
                before: issuesOf(row.key, column),
              });
              model.edit([{ key: row.key, column, value: chosen.recipientId }], 'Use recipient from Search');
            }
            forgetChosen();
          }}
          onDismiss={forgetChosen}
        />
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

      <Stack ref={gridArea} spacing={1}>
        <DataGrid
          ref={grid}
          ariaLabel={`Rows of ${model.name}`}
          columns={columns}
          rows={visibleRows}
          issuesOf={issuesOf}
          onChange={(changes, label) => {
            const only = changes.length === 1 ? changes[0] : undefined;
            if (only) {
              cellEdited({
                key: only.key,
                column: only.column,
                // The edited row is the active one (the grid moves on after it reports the change).
                rowNumber:
                  (activeRow?.key === only.key ? activeRow : model.rows.find((r) => r.key === only.key))
                    ?.rowNumber ?? null,
                header: columns[only.column]?.header ?? '',
                before: issuesOf(only.key, only.column),
              });
            } else rowsChanged();
            model.edit(changes, label);
          }}
          onAppendRows={(cells) => {
            rowsChanged();
            model.insertRows(model.rows.length, cells, 'Paste rows');
          }}
          onActiveChange={(a) => a && setActive(a)}
          onCommand={(command) => {
            if (command === 'undo') actions.current?.undo();
            else if (command === 'redo') actions.current?.redo();
            else if (command === 'find') setFindOpen(true);
            else if (command === 'next-error') jumpToError(1);
            else if (command === 'previous-error') jumpToError(-1);
          }}
          height={GRID_HEIGHT}
        />
        {rowLevel.length > 0 && (
          <Alert severity={rowLevel.some((i) => i.severity === 'error') ? 'error' : 'warning'}>
            {rowLevel.map((i) => (
              <div key={`${i.code}-${i.message}`}>{i.message}</div>
            ))}
          </Alert>
        )}
      </Stack>
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
        onReplace={(edits, label) => {
          rowsChanged();
          model.edit(edits, label);
        }}
      />
    </Stack>
  );
}

/** Find and replace renders nothing new while it stays closed. */
const FindReplaceWhenOpen = memo(FindReplaceDialog, (before, after) => !before.open && !after.open);
