import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FileRow } from '../../../../shared/contract';
import { formatMinor } from '../../../../shared/amounts';
import { count } from '../../../../shared/i18n';
import { rowMatches } from './reviewRowSearch';

const ROW_HEIGHT = 48;
const COLUMNS = '64px minmax(160px, 1.4fr) minmax(120px, 1fr) 130px minmax(200px, 2fr) minmax(120px, 1fr)';

const cell = { px: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/**
 * Every row of the file, as the approver's computer read it: a list drawn only where it is seen
 * (50,000 rows scroll as lightly as 50), searched as one types.
 */
export function ReviewRows({ rows }: { rows: readonly FileRow[] }) {
  const [query, setQuery] = useState('');
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const shown = useMemo(
    () =>
      rows.filter(
        (r) => (!onlyFlagged || r.warnings.length > 0 || r.sentBy !== null) && rowMatches(r, query),
      ),
    [rows, query, onlyFlagged],
  );
  const scroller = useRef<HTMLDivElement>(null);
  // The list is drawn from the virtualizer's state at each render (as the workspace grid's is);
  // nothing of it is handed to a memoised child.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          label="Search the rows"
          size="small"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          sx={{ minWidth: 280 }}
          slotProps={{ htmlInput: { 'data-testid': 'review-rows-search' } }}
        />
        <FormControlLabel
          control={<Switch checked={onlyFlagged} onChange={(e) => setOnlyFlagged(e.target.checked)} />}
          label="Only rows with a warning or already sent"
        />
        <Typography role="status" data-testid="review-rows-shown" color="textSecondary">
          {shown.length === rows.length
            ? count(rows.length, 'row')
            : `${shown.length.toLocaleString()} of ${count(rows.length, 'row')}`}
        </Typography>
      </Stack>
      <Box
        role="table"
        aria-label="The rows of the file"
        aria-rowcount={shown.length + 1}
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1, fontSize: 14 }}
      >
        <Box
          role="row"
          aria-rowindex={1}
          sx={{
            display: 'grid',
            gridTemplateColumns: COLUMNS,
            fontWeight: 600,
            borderBottom: 1,
            borderColor: 'divider',
            py: 1,
            pr: '15px',
          }}
        >
          <Box role="columnheader" sx={cell}>
            Row
          </Box>
          <Box role="columnheader" sx={cell}>
            Cause
          </Box>
          <Box role="columnheader" sx={cell}>
            Donor
          </Box>
          <Box role="columnheader" sx={{ ...cell, textAlign: 'right' }}>
            Amount
          </Box>
          <Box role="columnheader" sx={cell}>
            Warnings
          </Box>
          <Box role="columnheader" sx={cell}>
            Already sent
          </Box>
        </Box>
        <Box
          ref={scroller}
          role="rowgroup"
          tabIndex={0}
          aria-label="Rows, scroll to see more"
          sx={{ height: 'min(360px, 45vh)', overflow: 'auto', position: 'relative' }}
          data-testid="review-rows-list"
        >
          <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const r = shown[item.index] as FileRow;
              const flagged = r.warnings.length > 0 || r.sentBy !== null;
              return (
                <Box
                  key={r.row}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-testid="review-row"
                  data-flagged={flagged ? 'yes' : 'no'}
                  sx={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: ROW_HEIGHT,
                    transform: `translateY(${item.start}px)`,
                    display: 'grid',
                    gridTemplateColumns: COLUMNS,
                    alignItems: 'center',
                    borderBottom: 1,
                    borderColor: 'divider',
                    bgcolor: flagged ? 'rgba(138, 75, 0, 0.08)' : undefined,
                  }}
                >
                  <Box role="cell" sx={cell}>
                    {r.row.toLocaleString()}
                  </Box>
                  <Box
                    role="cell"
                    sx={cell}
                    title={r.causeName ? `${r.causeName} (${r.recipientId})` : r.recipientId}
                  >
                    {r.causeName ?? <span style={{ fontFamily: 'monospace' }}>{r.recipientId}</span>}
                  </Box>
                  <Box role="cell" sx={cell} title={r.donor}>
                    {r.donor || '—'}
                  </Box>
                  <Box role="cell" sx={{ ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                    {formatMinor(r.amount, r.currencyCode)}
                  </Box>
                  <Box
                    role="cell"
                    title={r.warnings.join('\n')}
                    sx={{
                      px: 1,
                      overflow: 'hidden',
                      display: '-webkit-box',
                      WebkitLineClamp: 2,
                      WebkitBoxOrient: 'vertical',
                      lineHeight: 1.3,
                    }}
                  >
                    {r.warnings.length === 0 ? '' : r.warnings.join(' ')}
                  </Box>
                  <Box role="cell" sx={cell}>
                    {r.sentBy ? `Yes, by ${r.sentBy}` : ''}
                  </Box>
                </Box>
              );
            })}
          </Box>
        </Box>
      </Box>
      {shown.length === 0 && <Typography color="textSecondary">No row matches.</Typography>}
    </Stack>
  );
}
