import { memo, useRef, useState, type RefObject } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Undo from '@mui/icons-material/Undo';
import Redo from '@mui/icons-material/Redo';
import NavigateNext from '@mui/icons-material/NavigateNext';
import NavigateBefore from '@mui/icons-material/NavigateBefore';
import { useRovingToolbar } from '../../../components/rovingToolbar';

/** What the toolbar's buttons do: the screen keeps it current, so the toolbar need not re-render. */
export interface ToolbarActions {
  jumpToError(direction: 1 | -1): void;
  addRow(): void;
  deleteActiveRow(): void;
  exportBulkFile(): Promise<void>;
  exportInvalid(): Promise<void>;
  exportCorrected(): Promise<void>;
  openUpload(): Promise<void>;
  undo(): void;
  redo(): void;
  find(): void;
  changeMapping(): void;
}

interface Props {
  actions: RefObject<ToolbarActions | null>;
  onlyErrors: boolean;
  onOnlyErrors(only: boolean): void;
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: string | undefined;
  redoLabel: string | undefined;
  onUndo(): void;
  onRedo(): void;
  hasActiveRow: boolean;
  noInvalid: boolean;
  repairIntentId: string | undefined;
}

/**
 * The grid's tools. It re-renders only when what it shows changes, not on every edit: MUI controls
 * are costly to render, and an edit must reach the screen within a frame. Handlers go through `actions`.
 */
export const GridToolbar = memo(function GridToolbar({
  actions,
  onlyErrors,
  onOnlyErrors,
  canUndo,
  canRedo,
  undoLabel,
  redoLabel,
  onUndo,
  onRedo,
  hasActiveRow,
  noInvalid,
  repairIntentId,
}: Props) {
  const [exportMenu, setExportMenu] = useState<HTMLElement | null>(null);
  // One Tab stop; the arrow keys move between the tools.
  const toolbar = useRef<HTMLDivElement>(null);
  const roving = useRovingToolbar(toolbar);
  const exportWith = (run: (a: ToolbarActions) => Promise<void>) => {
    setExportMenu(null);
    if (actions.current) void run(actions.current);
  };
  return (
    <Stack
      direction="row"
      spacing={0.75}
      useFlexGap
      ref={toolbar}
      role="toolbar"
      aria-label="Grid tools"
      onFocus={roving.onFocus}
      onKeyDown={roving.onKeyDown}
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
    >
      <FormControlLabel
        control={
          <Switch size="small" checked={onlyErrors} onChange={(e) => onOnlyErrors(e.target.checked)} />
        }
        label="Only rows with errors"
        slotProps={{ typography: { variant: 'body2' } }}
        sx={{ ml: 0 }}
      />
      <Tooltip title="Previous error; once none is left, previous warning (Shift+F8)">
        <IconButton size="small" aria-label="Previous error" onClick={() => actions.current?.jumpToError(-1)}>
          <NavigateBefore />
        </IconButton>
      </Tooltip>
      <Tooltip title="Next error; once none is left, next warning (F8)">
        <IconButton size="small" aria-label="Next error" onClick={() => actions.current?.jumpToError(1)}>
          <NavigateNext />
        </IconButton>
      </Tooltip>
      <Divider orientation="vertical" flexItem />
      <UndoRedo
        canUndo={canUndo}
        canRedo={canRedo}
        undoLabel={undoLabel}
        redoLabel={redoLabel}
        onUndo={onUndo}
        onRedo={onRedo}
      />
      <Divider orientation="vertical" flexItem />
      <Button variant="outlined" size="small" onClick={() => actions.current?.find()}>
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
      <Button variant="outlined" size="small" onClick={() => actions.current?.changeMapping()}>
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
        <MenuItem onClick={() => exportWith((a) => a.exportBulkFile())}>
          Bulk file (.json.gz), exactly as it would be uploaded
        </MenuItem>
        <MenuItem onClick={() => exportWith((a) => a.exportInvalid())} disabled={noInvalid}>
          Rows to fix (.xlsx, with an error column)
        </MenuItem>
        <MenuItem onClick={() => exportWith((a) => a.exportCorrected())}>Corrected sheet (.xlsx)</MenuItem>
      </Menu>
    </Stack>
  );
});

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
          <IconButton size="small" aria-label="Undo" onClick={onUndo} disabled={!canUndo}>
            <Undo />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={redoLabel ? `Redo ${redoLabel} (Ctrl+Y)` : 'Nothing to redo'}>
        <span>
          <IconButton size="small" aria-label="Redo" onClick={onRedo} disabled={!canRedo}>
            <Redo />
          </IconButton>
        </span>
      </Tooltip>
    </>
  );
});
