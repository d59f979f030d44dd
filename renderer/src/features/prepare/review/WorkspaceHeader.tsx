import { memo, useEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Workspace } from '../../../../../shared/contract';
import { sourceFileLabel } from '../../../../../shared/spreadsheet/sourceNames';
import type { SaveState } from '../model/useWorkspaceModel';
import { standingWords } from '../standingWords';
import { announce } from '../../../app/announce';

/** Saving that takes longer than this is announced (and so is its end). */
const LONG_SAVE_MS = 3000;

/**
 * The workspace's name, source, standing and save state, with the way back to all workspaces. Like
 * the other parts of the screen, it re-renders only when what it shows changes: an edit must reach
 * the screen within a frame, and MUI controls are costly to render again for nothing.
 */
export const WorkspaceHeader = memo(function WorkspaceHeader({
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
  useLongSaveAnnounced(save.status);
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
        <Typography
          color="textSecondary"
          noWrap
          title={`${sourceFileLabel(source)} · headers in row ${source.headerRow}`}
          sx={{ flex: '1 1 0', minWidth: 120 }}
        >
          {sourceFileLabel(source)} · headers in row {source.headerRow}
        </Typography>
        <StandingChip standing={standing} rows={rows} invalid={invalid} />
        {/* Not a live region: saving after every edit is no news. A long wait is announced. */}
        <Chip
          size="small"
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
        // A note, not an alert: these were said when the file was read.
        <Alert severity="info" role="note" sx={{ py: 0 }}>
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
    <Tooltip title={words.detail} describeChild>
      <Chip size="small" color={words.color} label={words.label} data-testid="workspace-standing" />
    </Tooltip>
  );
}

/**
 * Saving is said only when it takes long: "Still saving your changes…", then "All changes saved."
 * when it ends. A failure is an alert of its own, under the header.
 */
function useLongSaveAnnounced(status: SaveState['status']) {
  const toldWaiting = useRef(false);
  useEffect(() => {
    if (status === 'saving') {
      const timer = setTimeout(() => {
        toldWaiting.current = true;
        announce('Still saving your changes…');
      }, LONG_SAVE_MS);
      return () => clearTimeout(timer);
    }
    if (status === 'saved' && toldWaiting.current) announce('All changes saved.');
    toldWaiting.current = false;
    return undefined;
  }, [status]);
}
