import { Fragment, memo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
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
import type { MonthReport as Report } from '../../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../../shared/amounts';
import {
  CONTROL_FIGURES,
  CONTROL_TOTAL_RULE,
  INFORMATION_FIGURES,
  UPLOAD_CONTROL_RULE,
  UPLOAD_FIGURES,
  monthReportWorkbook,
  uploadCurrencyRows,
} from '../../../../shared/export/monthReportSheets';
import { count } from '../../../../shared/i18n';
import { desk } from '../../app/deskClient';
import { downloadBytes } from '../../lib/downloadBytes';
import { utcDateTime } from '../../lib/dates';
import { environmentLabels, type EnvironmentId } from '../../../../shared/contract/environment';
import { currencyLabel, sentElsewhereNote } from './statusLook';
import { ScrollRegion } from '../../components/ScrollRegion';

function thisMonth(): string {
  const now = new Date();
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month is a UTC month, so times are shown in UTC too: an upload never seems to sit in another month. */
const utc = (iso: string): string => utcDateTime(iso);

/** Tables of many figures: narrower gaps between columns, so that five-digit amounts fit at 1280 px. */
const FIGURE_TABLE = { '& th, & td': { px: 1 } };

const figure = (v: { count: number; amount: number }, currencyCode: string): string =>
  `${v.count} · ${formatMinor(v.amount, currencyCode)}`;

/** The column heads of a table of figures, right-aligned as the figures are. */
function FigureHeads({ figures }: { figures: ReadonlyArray<{ key: string; label: string }> }) {
  return (
    <>
      {figures.map(({ key, label }) => (
        <TableCell key={key} align="right">
          {label}
        </TableCell>
      ))}
    </>
  );
}

function Flag({ ok, testId }: { ok: boolean; testId: string }) {
  return (
    <Chip
      size="small"
      color={ok ? 'success' : 'warning'}
      label={ok ? 'Reconciled' : 'Does not add up'}
      data-testid={testId}
    />
  );
}

async function exportXlsx(report: Report) {
  const XLSX = await import('xlsx');
  // The same workbook as the CLI's report --out: Summary, Uploads and About.
  const book = monthReportWorkbook(XLSX, report);
  downloadBytes(
    `month-end-report-${report.month}.xlsx`,
    XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as Uint8Array,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
}

/**
 * The month-end report: per currency, what was sent in the month and where each donation stands,
 * with the control total checked per currency and per upload. Export it as xlsx or print it.
 */
export const MonthReport = memo(function MonthReport() {
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

  const oneByOne = report?.lines.reduce((n, l) => n + l.sentOneByOne.count, 0) ?? 0;

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
          Month-end report{report ? ` ${report.month}` : ''}
        </Typography>
        <Stack
          direction="row"
          spacing={2}
          sx={{ alignItems: 'center', flexWrap: 'wrap', displayPrint: 'none' }}
          useFlexGap
        >
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
      </Stack>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      {report && (
        <>
          <Typography sx={{ mt: 1 }}>
            {count(report.uploads.length, 'upload')} and {count(oneByOne, 'donation')} sent one by one in{' '}
            {report.month} (UTC) ·{' '}
            {environmentLabels[report.environment as EnvironmentId] ?? report.environment} · made{' '}
            {utc(report.generatedAt)} · donations last read from the service{' '}
            {report.lastRefreshAt ? utc(report.lastRefreshAt) : 'never'}{' '}
            <Chip
              size="small"
              color={report.reconciled ? 'success' : 'warning'}
              label={report.reconciled ? 'Reconciled' : 'Does not add up'}
              data-testid="report-reconciled"
            />
          </Typography>

          <Typography variant="h3" component="h3" sx={{ mt: 2 }} gutterBottom>
            Per currency
          </Typography>
          {report.lines.length === 0 ? (
            <Typography color="textSecondary">Nothing was sent in this month.</Typography>
          ) : (
            <>
              <ScrollRegion label="Report table: per currency">
                <Table
                  size="small"
                  aria-label={`Month-end report ${report.month} per currency`}
                  sx={FIGURE_TABLE}
                >
                  <TableHead>
                    <TableRow>
                      <TableCell>Currency</TableCell>
                      <FigureHeads figures={CONTROL_FIGURES} />
                      <TableCell>Control total</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {report.lines.map((l) => (
                      <TableRow key={l.currencyCode} data-testid={`report-line-${l.currencyCode}`}>
                        <TableCell title={currencyLabel(l.currencyCode)}>{l.currencyCode}</TableCell>
                        {CONTROL_FIGURES.map(({ key }) => (
                          <TableCell key={key} align="right" sx={{ whiteSpace: 'nowrap' }}>
                            {figure(l[key], l.currencyCode)}
                          </TableCell>
                        ))}
                        <TableCell>
                          <Flag ok={l.reconciled} testId={`report-line-reconciled-${l.currencyCode}`} />
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </ScrollRegion>
              <Typography variant="body2" sx={{ mt: 1 }}>
                {CONTROL_TOTAL_RULE} Each donation is counted once on each side.
              </Typography>

              <Typography variant="h3" component="h3" sx={{ mt: 2 }} gutterBottom>
                Included above, not added again
              </Typography>
              <ScrollRegion label="Report table: corrections and single donations">
                <Table
                  size="small"
                  aria-label={`Corrections and single donations in ${report.month}`}
                  sx={FIGURE_TABLE}
                >
                  <TableHead>
                    <TableRow>
                      <TableCell>Currency</TableCell>
                      <FigureHeads figures={INFORMATION_FIGURES} />
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {report.lines.map((l) => (
                      <TableRow key={l.currencyCode}>
                        <TableCell>{l.currencyCode}</TableCell>
                        {INFORMATION_FIGURES.map(({ key }) => (
                          <TableCell key={key} align="right" sx={{ whiteSpace: 'nowrap' }}>
                            {figure(l[key], l.currencyCode)}
                          </TableCell>
                        ))}
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </ScrollRegion>
            </>
          )}

          <Typography variant="h3" component="h3" sx={{ mt: 2 }} gutterBottom>
            Control totals per upload
          </Typography>
          {report.uploads.length === 0 ? (
            <Typography color="textSecondary">No upload was made in this month.</Typography>
          ) : (
            <>
              <ScrollRegion label="Report table: control totals per upload">
                <Table
                  size="small"
                  aria-label={`Control totals per upload in ${report.month}`}
                  sx={FIGURE_TABLE}
                >
                  <TableHead>
                    <TableRow>
                      <TableCell>Upload</TableCell>
                      <TableCell>Currency</TableCell>
                      <FigureHeads figures={UPLOAD_FIGURES} />
                      <TableCell>Control total</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {report.uploads.map((u) => {
                      const rows = uploadCurrencyRows(u);
                      const span = Math.max(rows.length, 1);
                      const uploadCell = (
                        <TableCell rowSpan={span} sx={{ verticalAlign: 'top' }}>
                          {u.workspaceName}
                          <Typography variant="body2" color="textSecondary">
                            {utc(u.createdAt)}
                            {sentElsewhereNote(u) ? ` · ${sentElsewhereNote(u)}` : ''}
                            {u.declinedOpen > 0
                              ? ` · ${count(u.declinedOpen, 'declined donation')} open`
                              : ''}
                          </Typography>
                          {u.notReadYet ? (
                            <Chip
                              size="small"
                              variant="outlined"
                              label="Not read yet"
                              data-testid="report-upload-reconciled"
                            />
                          ) : (
                            !u.reconciled && <Flag ok={false} testId="report-upload-reconciled" />
                          )}
                          {u.notes.map((n) => (
                            <Typography key={n} variant="body2">
                              {n}
                            </Typography>
                          ))}
                        </TableCell>
                      );
                      if (rows.length === 0) {
                        return (
                          <TableRow key={u.uploadId} data-testid="report-upload">
                            {uploadCell}
                            <TableCell colSpan={UPLOAD_FIGURES.length + 2}>No donations counted.</TableCell>
                          </TableRow>
                        );
                      }
                      return (
                        <Fragment key={u.uploadId}>
                          {rows.map((row, i) => (
                            <TableRow key={row.currencyCode} data-testid="report-upload">
                              {i === 0 && uploadCell}
                              <TableCell>{row.currencyCode}</TableCell>
                              {UPLOAD_FIGURES.map(({ key }) => (
                                <TableCell key={key} align="right" sx={{ whiteSpace: 'nowrap' }}>
                                  {figure(row[key], row.currencyCode)}
                                </TableCell>
                              ))}
                              <TableCell>
                                <Flag
                                  ok={row.addsUp}
                                  testId={`report-upload-line-reconciled-${row.currencyCode}`}
                                />
                              </TableCell>
                            </TableRow>
                          ))}
                        </Fragment>
                      );
                    })}
                  </TableBody>
                </Table>
              </ScrollRegion>
              <Typography variant="body2" sx={{ mt: 1 }}>
                {UPLOAD_CONTROL_RULE}
              </Typography>
            </>
          )}

          <Typography variant="h3" component="h3" sx={{ mt: 2 }} gutterBottom>
            What the figures mean
          </Typography>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              // Each meaning under its figure's name in a narrow window, beside it in a wide one.
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
              typography: 'body2',
              '& dt': { fontWeight: 600 },
              '& dd': { m: 0, mb: { xs: 1, sm: 0 } },
            }}
          >
            {[...CONTROL_FIGURES, ...INFORMATION_FIGURES].map(({ key, label, meaning }) => (
              <Fragment key={key}>
                <dt>{label}</dt>
                <dd>{meaning}</dd>
              </Fragment>
            ))}
            {UPLOAD_FIGURES.filter(({ key }) => key === 'accepted').map(({ key, label, meaning }) => (
              <Fragment key={key}>
                <dt>{label} (uploads)</dt>
                <dd>{meaning}</dd>
              </Fragment>
            ))}
          </Box>
        </>
      )}
    </Paper>
  );
});
