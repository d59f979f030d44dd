import { memo } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatMinor } from '../../../../shared/amounts';
import type { RecipientTotal } from './model/rowResults';
import type { CurrencyTotal } from '../../../../shared/workspace';
import { count } from '../../../../shared/i18n';
import { usualMoveWords, type UsualMove } from './model/usualMoves';

interface Props {
  counts: { rows: number; valid: number; invalid: number; warnings: number };
  totals: CurrencyTotal[];
  largest: RecipientTotal[];
  /** Usual amounts the last change moved: why the warnings rose or fell on rows not touched. */
  moves?: readonly UsualMove[];
}

function Stat({
  label,
  value,
  tone,
}: {
  label: string;
  value: string;
  tone?: 'error' | 'warning' | 'success';
}) {
  return (
    <Box sx={{ minWidth: 72 }}>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography
        sx={{
          fontSize: '1.25rem',
          fontWeight: 600,
          lineHeight: 1.3,
          color: tone ? `${tone}.main` : undefined,
        }}
        data-testid={`summary-${label.toLowerCase()}`}
      >
        {value}
      </Typography>
    </Box>
  );
}

/**
 * Rows, valid, invalid, warnings; count and sum per currency; the largest recipients, as bars. One
 * band about 120 px high, so that at 1280×720 the grid below still shows ten rows and more.
 */
function SummaryPanelView({ counts, totals, largest, moves = [] }: Props) {
  const top = largest[0]?.amount ?? 1;
  const n = (x: number) => x.toLocaleString();

  return (
    <Paper
      variant="outlined"
      // As high while the rows are being checked as once the recipients are listed: nothing below jumps.
      sx={{ px: 2, py: 1.5, minHeight: 120 }}
      component="section"
      aria-label="Summary"
    >
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} useFlexGap>
        <Box sx={{ flexShrink: 0, maxWidth: { md: 420 } }}>
          <Stack direction="row" spacing={2.5} useFlexGap sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Stat label="Rows" value={n(counts.rows)} />
            <Stat label="Valid" value={n(counts.valid)} tone="success" />
            <Stat label="Invalid" value={n(counts.invalid)} tone={counts.invalid ? 'error' : undefined} />
            <Stat
              label="Warnings"
              value={n(counts.warnings)}
              tone={counts.warnings ? 'warning' : undefined}
            />
          </Stack>
          {moves.length > 0 && (
            <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="usual-moved">
              {moves.map(usualMoveWords).join(' ')}
            </Typography>
          )}
        </Box>
        <Box sx={{ minWidth: 200, flexShrink: 0 }}>
          <Typography variant="subtitle2" component="h3">
            Valid donations per currency
          </Typography>
          {totals.length === 0 ? (
            <Typography color="textSecondary">None yet.</Typography>
          ) : (
            totals.map((t) => (
              <Typography key={t.currencyCode} data-testid={`total-${t.currencyCode}`}>
                <strong>{formatMinor(t.amount, t.currencyCode)}</strong> in {count(t.count, 'donation')}
              </Typography>
            ))
          )}
        </Box>
        <Box sx={{ flexGrow: 1, minWidth: 240 }}>
          <Typography variant="subtitle2" component="h3">
            Largest recipients
          </Typography>
          <Box
            component="ol"
            sx={{
              listStyle: 'none',
              p: 0,
              m: 0,
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(175px, 1fr))',
              columnGap: 2,
              rowGap: 0.5,
            }}
          >
            {largest.map((r) => (
              <Box component="li" key={`${r.recipientId}|${r.currencyCode}`}>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{
                    justifyContent: 'space-between',
                    fontSize: 12.5,
                    lineHeight: 1.4,
                    whiteSpace: 'nowrap',
                  }}
                >
                  <span>{r.recipientId}</span>
                  <span>
                    {formatMinor(r.amount, r.currencyCode)} · {r.count}
                  </span>
                </Stack>
                <Box
                  aria-hidden
                  sx={{
                    height: 4,
                    borderRadius: 2,
                    bgcolor: 'primary.main',
                    '@media (forced-colors: active)': { forcedColorAdjust: 'none', bgcolor: 'CanvasText' },
                    width: `${Math.max(2, (r.amount / top) * 100)}%`,
                  }}
                />
              </Box>
            ))}
          </Box>
        </Box>
      </Stack>
    </Paper>
  );
}

const same = (a: Props, b: Props) =>
  a.largest === b.largest &&
  a.moves === b.moves &&
  a.counts.rows === b.counts.rows &&
  a.counts.valid === b.counts.valid &&
  a.counts.invalid === b.counts.invalid &&
  a.counts.warnings === b.counts.warnings &&
  a.totals.length === b.totals.length &&
  a.totals.every((t, i) => {
    const u = b.totals[i];
    return (
      u !== undefined && u.currencyCode === t.currencyCode && u.count === t.count && u.amount === t.amount
    );
  });

/** Re-renders only when a figure it shows changes. */
export const SummaryPanel = memo(SummaryPanelView, same);
