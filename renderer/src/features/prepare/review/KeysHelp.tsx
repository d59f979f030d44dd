import { memo } from 'react';
import Typography from '@mui/material/Typography';

/** The grid's keys, in one line under it. */
export const KeysHelp = memo(function KeysHelp() {
  return (
    <Typography variant="body2" color="textSecondary">
      Keys: arrows move · Enter or F2 edits · typing replaces · Delete clears · Ctrl+C / Ctrl+V copy and paste
      blocks with Excel · Ctrl+D fills down · Ctrl+Z / Ctrl+Y undo and redo · Ctrl+F finds · F8 / Shift+F8
      next and previous error, then warning.
    </Typography>
  );
});
