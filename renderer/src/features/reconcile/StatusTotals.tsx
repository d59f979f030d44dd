import { memo } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ChannelResponse } from '../../../../shared/contract';
import type { UploadControl } from '../../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../../shared/amounts';
import { UPLOAD_CONTROL_RULE, UPLOAD_FIGURES } from '../../../../shared/export/monthReportSheets';
import { count, donationStatusWord, withCode } from '../../../../shared/i18n';
import { STATUSES, STATUS_COLOUR, currencyLabel, sentElsewhereNote, time } from './statusLook';
import { ScrollRegion } from '../../components/ScrollRegion';

type Summary = ChannelResponse<'donations.summary'>;
type Money = { currencyCode: string; count: number; amount: number };

const figure = (t: Money) => `${t.count.toLocaleString()} · ${formatMinor(t.amount, t.currencyCode)}`;
/** One line per currency, never broken inside a figure. */
const figures = (list: Money[]) =>
  list.length === 0
    ? '0'
    : list.map((t) => (
        <Box key={t.currencyCode} sx={{ whiteSpace: 'nowrap' }}>
          {figure(t)}
        </Box>
      ));

/**
 * A currency's headline: what goes ahead, then what was declined apart. A declined donation and the
 * corrected one that replaces it are never added together ("39 donations", not "40").
 */
export function headline(currency: string, n: number, amount: number, declined: Money | undefined): string {
  const going = n - (declined?.count ?? 0);
  const goingAmount = amount - (declined?.amount ?? 0);
  const head = `${currencyLabel(currency)} · ${count(going, 'donation')} · ${formatMinor(goingAmount, currency)}`;
  return declined && declined.count > 0
    ? `${head}, and ${count(declined.count, 'declined donation')} (${formatMinor(declined.amount, currency)}) apart`
    : head;
}

/** Reconciled, not read yet, or does not add up: what a person needs to know of an upload's control total. */
export function ControlChip({ upload }: { upload: UploadControl }) {
  if (upload.notReadYet) {
    return <Chip size="small" variant="outlined" label="Not read yet" data-testid="upload-reconciled" />;
  }
  return (
    <Chip
      size="small"
      color={upload.reconciled ? 'success' : 'warning'}
      label={upload.reconciled ? 'Reconciled' : 'Does not add up'}
      data-testid="upload-reconciled"
    />
  );
}

/**
 * Per currency: a bar named by its currency showing how far its donations have come, then one
 * table of the states in plain words; below, the control total of each upload.
 */
export const StatusTotals = memo(function StatusTotals({ summary }: { summary: Summary }) {
  const currencies = [...new Set(summary.byStatus.map((t) => t.currencyCode))].sort();
  const line = (currency: string, status: string) =>
    summary.byStatus.find((t) => t.currencyCode === currency && t.status === status);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="status-totals-title">
      <Typography variant="h2" id="status-totals-title" gutterBottom>
        Where the donations stand
      </Typography>
      {currencies.length === 0 && (
        <Typography color="textSecondary">
          No donations read yet: press Refresh from the service after an upload.
        </Typography>
      )}
      {currencies.map((currency) => {
        const lines = STATUSES.map((s) => ({ status: s, total: line(currency, s) }));
        const amount = lines.reduce((sum, l) => sum + (l.total?.amount ?? 0), 0);
        const n = lines.reduce((sum, l) => sum + (l.total?.count ?? 0), 0);
        return (
          <Box key={currency} sx={{ mb: 1.5 }} data-testid={`status-bar-${currency}`}>
            <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="status-bar-label">
              {headline(currency, n, amount, line(currency, 'DECLINED'))}
            </Typography>
            <Box
              sx={{
                display: 'flex',
                height: 14,
                borderRadius: 1,
                overflow: 'hidden',
                bgcolor: 'grey.200',
                // Forced colours would take the fills away: the bar keeps its colours, inside an edge.
                '@media (forced-colors: active)': {
                  forcedColorAdjust: 'none',
                  border: '1px solid CanvasText',
                  bgcolor: 'Canvas',
                  '& > *': { borderRight: '1px solid Canvas' },
                },
              }}
              role="img"
              aria-label={`${currencyLabel(currency)}: ${lines
                .filter((l) => l.total)
                .map((l) => `${donationStatusWord(l.status)} ${count(l.total?.count ?? 0, 'donation')}`)
                .join(', ')}`}
            >
              {lines.map(({ status, total }) =>
                total ? (
                  <Box
                    key={status}
                    title={`${donationStatusWord(status)}: ${figure(total)}`}
                    sx={{
                      width: `${(total.amount / (amount || 1)) * 100}%`,
                      minWidth: 3,
                      bgcolor: STATUS_COLOUR[status],
                    }}
                  />
                ) : null,
              )}
            </Box>
          </Box>
        );
      })}
      {currencies.length > 0 && (
        <ScrollRegion label="Totals per state and currency">
          <Table size="small" aria-label="Totals per state and currency" sx={{ mt: 1 }}>
            <TableHead>
              <TableRow>
                <TableCell>Currency</TableCell>
                {STATUSES.map((s) => (
                  <TableCell key={s} align="right" title={withCode(donationStatusWord(s), s)}>
                    <Stack
                      direction="row"
                      spacing={0.75}
                      sx={{ alignItems: 'center', justifyContent: 'flex-end' }}
                    >
                      <Box
                        aria-hidden
                        sx={{
                          width: 10,
                          height: 10,
                          borderRadius: '2px',
                          bgcolor: STATUS_COLOUR[s],
                          flexShrink: 0,
                        }}
                      />
                      <span>{donationStatusWord(s)}</span>
                    </Stack>
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {currencies.map((currency) => (
                <TableRow key={currency}>
                  <TableCell>{currency}</TableCell>
                  {STATUSES.map((s) => {
                    const t = line(currency, s);
                    return (
                      <TableCell key={s} align="right" data-testid={`status-${s}-${currency}`}>
                        {t ? figure(t) : '—'}
                      </TableCell>
                    );
                  })}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
      {summary.uploads.length > 0 && (
        <>
          <Typography variant="h3" component="h3" sx={{ mt: 2 }} gutterBottom>
            Control totals per upload
          </Typography>
          <Typography variant="body2" color="textSecondary" gutterBottom>
            {UPLOAD_CONTROL_RULE}
          </Typography>
          <ScrollRegion label="Control totals per upload, from the donations read">
            <Table size="small" aria-label="Control totals per upload">
              <TableHead>
                <TableRow>
                  <TableCell>Upload</TableCell>
                  {UPLOAD_FIGURES.map(({ key, label, meaning }) => (
                    <TableCell key={key} align="right" title={meaning}>
                      {label}
                    </TableCell>
                  ))}
                  <TableCell>Result</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {summary.uploads.map((u) => (
                  <TableRow key={u.uploadId}>
                    <TableCell sx={{ minWidth: 180 }}>
                      {u.workspaceName}
                      <Typography variant="body2" color="textSecondary">
                        {time(u.createdAt)}
                        {sentElsewhereNote(u) ? ` · ${sentElsewhereNote(u)}` : ''}
                      </Typography>
                    </TableCell>
                    {UPLOAD_FIGURES.map(({ key }) => (
                      <TableCell key={key} align="right">
                        {figures(u[key])}
                      </TableCell>
                    ))}
                    <TableCell>
                      <ControlChip upload={u} />
                      {u.notes.map((note) => (
                        <Typography key={note} variant="body2" data-testid="upload-note">
                          {note}
                        </Typography>
                      ))}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollRegion>
        </>
      )}
    </Paper>
  );
});
