import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ApprovalReview } from '../../../../shared/contract';
import { formatMinor } from '../../../../shared/amounts';
import { changeFromMonthBefore, monthName, type CurrencyTotal } from './approvalFigures';

const find = (totals: readonly CurrencyTotal[], code: string) => totals.find((t) => t.currencyCode === code);

/**
 * Count and total per currency computed from the file, the preparer's declaration beside them, and
 * the change from what the team sent the month before. Without a file read, only the declaration.
 */
export function ReviewTotals({ review }: { review: ApprovalReview }) {
  const fromFile = review.file.checked ? review.file.totals : null;
  const shown = fromFile ?? review.totals;
  const changes = changeFromMonthBefore(shown, review.previousMonth.totals);
  const codes = [
    ...new Set([...changes.map((c) => c.currencyCode), ...review.totals.map((t) => t.currencyCode)]),
  ];
  const before = monthName(review.previousMonth.month);
  return (
    <Table size="small" aria-labelledby="review-totals" data-testid="review-totals">
      <TableHead>
        <TableRow>
          <TableCell>Currency</TableCell>
          <TableCell align="right">{fromFile ? 'Donations in the file' : 'Donations declared'}</TableCell>
          <TableCell align="right">{fromFile ? 'Total in the file' : 'Total declared'}</TableCell>
          {fromFile && <TableCell align="right">Declared by the preparer’s app</TableCell>}
          <TableCell align="right">Sent in {before}</TableCell>
          <TableCell align="right">Change</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {codes.map((code) => {
          const c = changes.find((x) => x.currencyCode === code);
          const mine = find(shown, code);
          const declared = find(review.totals, code);
          const differs =
            fromFile !== null && (mine?.amount ?? 0) !== (declared?.amount ?? 0)
              ? true
              : fromFile !== null && (mine?.count ?? 0) !== (declared?.count ?? 0);
          return (
            <TableRow key={code} data-testid="review-total" data-currency={code}>
              <TableCell>{code}</TableCell>
              <TableCell align="right">{(mine?.count ?? 0).toLocaleString()}</TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="review-total-file">
                {formatMinor(mine?.amount ?? 0, code)}
              </TableCell>
              {fromFile && (
                <TableCell
                  align="right"
                  data-testid="review-total-declared"
                  sx={differs ? { color: 'error.main', fontWeight: 600 } : undefined}
                >
                  {declared
                    ? `${formatMinor(declared.amount, code)} (${declared.count.toLocaleString()})`
                    : 'nothing'}
                  {differs ? ' — differs' : ''}
                </TableCell>
              )}
              <TableCell align="right">{formatMinor(c?.before ?? 0, code)}</TableCell>
              <TableCell align="right">
                {c?.change ?? ''}
                {c?.percent
                  ? ` (${c.percent})`
                  : c && c.before === 0 && c.now !== 0
                    ? ' (nothing the month before)'
                    : ''}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
