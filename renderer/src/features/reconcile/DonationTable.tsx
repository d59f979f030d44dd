import { memo } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { alpha, lighten, type Theme } from '@mui/material/styles';
import type { DonationView, UploadControl } from '../../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../../shared/amounts';
import { donationStatusWord, withCode } from '../../../../shared/i18n';
import { STATUS_COLOUR, sentElsewhereNote, shortTime } from './statusLook';

/**
 * The table's looks, once for the whole table rather than per row or cell: the rows are plain
 * elements (an MUI component, its styles and a tooltip per cell made a page of 50 take most of a
 * second to show). The cells look as MUI's small body cells do; one line per donation, so a laptop
 * screen shows a dozen: what does not fit ends in "…" and is said in full on hover and in the details.
 */
const TABLE_SX = (theme: Theme) => ({
  tableLayout: 'fixed',
  width: '100%',
  minWidth: 560,
  '& tbody tr': {
    color: 'inherit',
    display: 'table-row',
    verticalAlign: 'middle',
    outline: 0,
    cursor: 'pointer',
    '&:hover': { backgroundColor: theme.palette.action.hover },
    '&.Mui-selected': {
      backgroundColor: alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity),
      '&:hover': {
        backgroundColor: alpha(
          theme.palette.primary.main,
          theme.palette.action.selectedOpacity + theme.palette.action.hoverOpacity,
        ),
      },
    },
  },
  '& tbody td': {
    ...(theme.typography.body2 as object),
    display: 'table-cell',
    verticalAlign: 'inherit',
    borderBottom: `1px solid ${lighten(alpha(theme.palette.divider, 1), 0.88)}`,
    textAlign: 'left',
    color: theme.palette.text.primary,
    padding: theme.spacing(0.5, 1),
    lineHeight: 1.35,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  '& tbody td > *': { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis' },
  '& tbody td.dd-amount': { textAlign: 'right', overflowWrap: 'normal !important' },
  // The recipient, a button that looks like MUI's small text button.
  '& .dd-pick': {
    ...(theme.typography.button as object),
    fontSize: theme.typography.pxToRem(13),
    textTransform: 'none',
    color: theme.palette.primary.main,
    background: 'transparent',
    border: 0,
    borderRadius: `${theme.shape.borderRadius}px`,
    margin: 0,
    padding: 0,
    minWidth: 0,
    maxWidth: '100%',
    textAlign: 'left',
    whiteSpace: 'nowrap',
    cursor: 'pointer',
    '&:hover': { backgroundColor: alpha(theme.palette.primary.main, theme.palette.action.hoverOpacity) },
  },
  '& .dd-state': { fontWeight: 600 },
  // As the Typography it replaces drew it (its colour prop there named no colour it knows: the cell's).
  '& .dd-sub': { ...(theme.typography.body2 as object), margin: 0, color: theme.palette.text.secondary },
});

interface Props {
  rows: readonly DonationView[];
  selectedId: string | null;
  onSelect(d: DonationView): void;
  uploadOfBulk: ReadonlyMap<string, UploadControl>;
  sourceRow(d: DonationView): string;
}

/** One page of the donations: recipient, amount, donor, state and the upload and row it came from. */
export const DonationTable = memo(function DonationTable({
  rows,
  selectedId,
  onSelect,
  uploadOfBulk,
  sourceRow,
}: Props) {
  return (
    <Table size="small" aria-label="Donations" sx={TABLE_SX}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '18%' }}>Recipient</TableCell>
          <TableCell align="right" sx={{ width: '15%' }}>
            Amount
          </TableCell>
          <TableCell sx={{ width: '18%' }}>Donor</TableCell>
          <TableCell sx={{ width: '23%' }}>State</TableCell>
          <TableCell sx={{ width: '26%' }}>From</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((d) => {
          const upload = d.bulkId ? uploadOfBulk.get(d.bulkId) : undefined;
          const elsewhere = upload?.sentElsewhere ? sentElsewhereNote(upload) : null;
          const source = sourceRow(d);
          const selected = selectedId === d.id;
          return (
            <tr
              key={d.id}
              className={selected ? 'Mui-selected' : undefined}
              onClick={() => onSelect(d)}
              data-testid="donation-row"
            >
              <td>
                <button type="button" className="dd-pick" onClick={() => onSelect(d)} aria-pressed={selected}>
                  {d.recipientId}
                </button>
              </td>
              <td className="dd-amount" data-testid="donation-amount">
                {formatMinor(d.amount, d.currencyCode)}
              </td>
              <td title={d.donorName ?? undefined}>{d.donorName ?? '—'}</td>
              <td>
                <span
                  className="dd-state"
                  style={{ color: STATUS_COLOUR[d.state] }}
                  title={withCode(donationStatusWord(d.state), d.state)}
                  data-testid="donation-state"
                >
                  {donationStatusWord(d.state)}
                </span>
                <div className="dd-sub" title="Last update from the service">
                  {shortTime(d.statusLastUpdated)}
                </div>
              </td>
              <td>
                <div data-testid="donation-bulk">
                  {d.bulkId ? (
                    <span title={`Bulk ${d.bulkId}${elsewhere ? `, ${elsewhere}` : ''}`}>
                      {upload?.workspaceName ?? d.bulkId}
                    </span>
                  ) : (
                    'one by one'
                  )}
                </div>
                <div className="dd-sub" data-testid="donation-source-row" title={source}>
                  {d.row
                    ? `row ${d.row.rowNumber ?? 'new'}${d.row.method === 'fingerprint' ? ' (by content)' : ''}`
                    : source === '—'
                      ? ''
                      : source}
                </div>
              </td>
            </tr>
          );
        })}
      </TableBody>
    </Table>
  );
});
