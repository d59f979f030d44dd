import { Fragment } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { DonationView } from '../../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../../shared/amounts';
import { codeWord, donationStatusWord, withCode } from '../../../../shared/i18n';
import { STATUS_COLOUR, time } from './statusLook';

/** A donation's state in plain words and its colour; the service's code in the tooltip. */
export function StateWord({ state }: { state: DonationView['state'] }) {
  return (
    <Tooltip title={withCode(donationStatusWord(state), state)} describeChild>
      <Box
        component="span"
        sx={{ color: STATUS_COLOUR[state], fontWeight: 600 }}
        data-testid="donation-state"
      >
        {donationStatusWord(state)}
      </Box>
    </Tooltip>
  );
}

/**
 * The chosen donation beside the table: every attribute the table leaves out (payment, receipt,
 * metadata, ids) and the states it went through, so a click never sends the eye far away.
 */
export function DonationDetails(props: {
  donation: DonationView | null;
  uploadName(bulkId: string): string | null;
  sourceRow(d: DonationView): string;
}) {
  const d = props.donation;
  return (
    <Paper
      variant="outlined"
      component="aside"
      aria-labelledby="donation-details-title"
      sx={{ p: 2, position: 'sticky', top: 80, maxHeight: 'calc(100vh - 96px)', overflowY: 'auto' }}
      data-testid="donation-details"
    >
      <Typography variant="h3" component="h3" id="donation-details-title" gutterBottom>
        {d ? `${formatMinor(d.amount, d.currencyCode)} to ${d.recipientId}` : 'Donation details'}
      </Typography>
      {!d ? (
        <Typography color="textSecondary">
          Select a donation to see its details and the states it went through.
        </Typography>
      ) : (
        <Stack spacing={1.5}>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              columnGap: 1.5,
              rowGap: 0.5,
              m: 0,
              typography: 'body2',
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, overflowWrap: 'anywhere' },
            }}
          >
            <dt>State</dt>
            <dd>
              <StateWord state={d.state} />
            </dd>
            {d.errors.map((e, i) => (
              <Fragment key={i}>
                <dt>Why</dt>
                <dd title={withCode(e.title || codeWord(e.code), e.code)}>
                  {codeWord(e.code)}
                  {e.detail ? `: ${e.detail}` : ''}
                </dd>
              </Fragment>
            ))}
            <dt>Donor</dt>
            <dd>{d.donorName ?? 'none (a company gift)'}</dd>
            <dt>Upload</dt>
            <dd>
              {d.bulkId ? (
                <span title={`Bulk ${d.bulkId}`}>{props.uploadName(d.bulkId) ?? d.bulkId}</span>
              ) : d.replaces ? (
                'sent one by one, as a correction'
              ) : (
                'sent one by one'
              )}
            </dd>
            <dt>Source row</dt>
            <dd data-testid="details-source-row">{props.sourceRow(d)}</dd>
            <dt>Payment</dt>
            <dd>{d.payablePaymentType ?? 'not yet paid'}</dd>
            <dt>Receipt</dt>
            <dd>{d.receiptId ?? '—'}</dd>
            {d.foundationId && (
              <>
                <dt>Foundation</dt>
                <dd>{d.foundationId}</dd>
              </>
            )}
            {d.replaces && (
              <>
                <dt>Corrects</dt>
                <dd>{d.replaces}</dd>
              </>
            )}
            <dt>Last asked</dt>
            <dd>{time(d.lastSeenAt)}</dd>
            <dt>Donation id</dt>
            <dd>{d.id}</dd>
          </Box>
          {Object.keys(d.metadata).length > 0 && (
            <Box>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                Metadata
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5, typography: 'body2', overflowWrap: 'anywhere' }}>
                {Object.entries(d.metadata).map(([k, v]) => (
                  <li key={k}>
                    {k}: {v}
                  </li>
                ))}
              </Box>
            </Box>
          )}
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              States seen
            </Typography>
            <Stack component="ol" sx={{ m: 0, pl: 2.5, typography: 'body2' }} aria-label="States seen">
              {d.history.map((h, i) => (
                <li key={i} title={h.state}>
                  {donationStatusWord(h.state)}: seen {time(h.seenAt)}
                  {h.statusLastUpdated ? ` (the service: ${time(h.statusLastUpdated)})` : ''}
                </li>
              ))}
            </Stack>
          </Box>
        </Stack>
      )}
    </Paper>
  );
}
