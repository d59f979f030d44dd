import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { MonthReport as Report, ReportLine } from '../../../../shared/contract/reconcileChannels';
import { formatMinor, minorToMajorString } from '../../../../shared/amounts';
import { neutraliseCell } from '../../../../shared/export/neutraliseCell';
import { desk } from '../../app/deskClient';
import { downloadBytes } from '../prepare/exportSheets';

const columns: [keyof Omit<ReportLine, 'currencyCode' | 'reconciled'>, string][] = [
  ['submitted', 'Submitted'],
  ['pending', 'Not yet decided'],
  ['inProgress', 'In progress'],
  ['paid', 'Paid'],
  ['cleared', 'Cleared'],
  ['declinedResolved', 'Declined, resolved'],
  ['declinedOpen', 'Declined, open'],
  ['replacements', 'Corrections sent'],
  ['singles', 'Single donations'],
];

function thisMonth(): string {
  const now = new Date();
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

async function exportXlsx(report: Report) {
  const XLSX = await import('xlsx');
  const header = [
    'Currency',
    ...columns.flatMap(([, label]) => [`${label} (count)`, `${label} (amount)`]),
    'Reconciled',
  ];
  const rows = report.lines.map((l) => [
    l.currencyCode,
    ...columns.flatMap(([key]) => [String(l[key].count), minorToMajorString(l[key].amount, l.currencyCode)]),
    l.reconciled ? 'yes' : 'NO',
  ]);
  const sheet = XLSX.utils.aoa_to_sheet(
    [[`Month-end report ${report.month} (${report.environment})`], [], header, ...rows].map((r) =>
      r.map(neutraliseCell),
    ),
  );
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, `Report ${report.month}`);
  downloadBytes(
    `donations-${report.month}.xlsx`,
    XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as Uint8Array,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
}

/** The month-end report: every figure per currency, with the control total checked. Export or print it. */
export function MonthReport() {
  const [month, setMonth] = useState(thisMonth);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function show() {
    setBusy(true);
    setError(null);
    const r = await desk['donations.report']({ month, refresh: true });
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setReport(r.value);
  }

  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      component="section"
      aria-labelledby="report-title"
      className="month-report"
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography variant="h2" id="report-title" sx={{ flexGrow: 1 }}>
          Month-end report
        </Typography>
        <TextField
          size="small"
          type="month"
          label="Month"
          value={month}
          onChange={(e) => setMonth(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button onClick={() => void show()} disabled={busy || !/^\d{4}-\d{2}$/.test(month)}>
          {busy ? 'Working…' : 'Show report'}
        </Button>
        {report && (
          <>
            <Button variant="outlined" onClick={() => void exportXlsx(report)}>
              Export xlsx
            </Button>
            <Button variant="outlined" onClick={() => window.print()}>
              Print or save as PDF
            </Button>
          </>
        )}
      </Stack>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      {report && (
        <>
          <Typography sx={{ mt: 1 }}>
            {report.uploads.length} uploads in {report.month} · {report.environment} · made{' '}
            {new Date(report.generatedAt).toLocaleString()}{' '}
            <Chip
              size="small"
              color={report.reconciled ? 'success' : 'warning'}
              label={report.reconciled ? 'Reconciled' : 'Does not add up'}
              data-testid="report-reconciled"
            />
          </Typography>
          <Table size="small" aria-label={`Month-end report ${report.month}`} sx={{ mt: 1 }}>
            <TableHead>
              <TableRow>
                <TableCell>Currency</TableCell>
                {columns.map(([key, label]) => (
                  <TableCell key={key} align="right">
                    {label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {report.lines.map((l) => (
                <TableRow key={l.currencyCode}>
                  <TableCell>{l.currencyCode}</TableCell>
                  {columns.map(([key]) => (
                    <TableCell key={key} align="right">
                      {l[key].count} · {formatMinor(l[key].amount, l.currencyCode)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Paper>
  );
}
