import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ChannelResponse, EventPayload } from '../../../../shared/contract';
import type { DonationStatus, DonationView } from '../../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../../shared/amounts';
import { desk } from '../../app/deskClient';
import { DeclinedPanel } from './DeclinedPanel';
import { MonthReport } from './MonthReport';
import { SingleDonationDialog } from './SingleDonationDialog';

type Summary = ChannelResponse<'donations.summary'>;

const statuses: DonationStatus[] = ['ACCEPTED', 'INITIATED', 'IN_PROGRESS', 'PAID', 'CLEARED', 'DECLINED'];
const statusColour: Record<DonationStatus, string> = {
  ACCEPTED: '#9e9e9e',
  INITIATED: '#5c6bc0',
  IN_PROGRESS: '#1e88e5',
  PAID: '#00897b',
  CLEARED: '#2e7d32',
  DECLINED: '#c62828',
};
/** The bulk filter's choice for donations made one at a time (single donations and corrections). */
const NO_BULK = '(none)';
const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** Totals per status and currency, with a bar per currency showing how far its donations have come. */
function StatusTotals({ summary }: { summary: Summary }) {
  const currencies = [...new Set(summary.byStatus.map((t) => t.currencyCode))];
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="status-totals-title">
      <Typography variant="h2" id="status-totals-title" gutterBottom>
        Where the donations stand
      </Typography>
      {currencies.length === 0 && <Typography color="text.secondary">No donations loaded yet.</Typography>}
      {currencies.map((currency) => {
        const lines = statuses.map((s) =>
          summary.byStatus.find((t) => t.currencyCode === currency && t.status === s),
        );
        const total = lines.reduce((sum, l) => sum + (l?.amount ?? 0), 0) || 1;
        return (
          <Box key={currency} sx={{ mb: 2 }}>
            <Box sx={{ display: 'flex', height: 14, borderRadius: 1, overflow: 'hidden', mb: 1 }} aria-hidden>
              {lines.map((l, i) =>
                l ? (
                  <Box
                    key={i}
                    sx={{
                      width: `${(l.amount / total) * 100}%`,
                      bgcolor: statusColour[statuses[i] as DonationStatus],
                    }}
                  />
                ) : null,
              )}
            </Box>
            <Table size="small" aria-label={`Totals in ${currency}`}>
              <TableHead>
                <TableRow>
                  {statuses.map((s) => (
                    <TableCell key={s} align="right">
                      {s}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                <TableRow>
                  {lines.map((l, i) => (
                    <TableCell key={i} align="right" data-testid={`status-${statuses[i]}-${currency}`}>
                      {l ? `${l.count} · ${formatMinor(l.amount, currency)}` : '—'}
                    </TableCell>
                  ))}
                </TableRow>
              </TableBody>
            </Table>
          </Box>
        );
      })}
      {summary.uploads.length > 0 && (
        <>
          <Typography variant="h3" component="h3" sx={{ mt: 1 }} gutterBottom>
            Control totals per upload: submitted = initiated or later + declined + accepted, not yet decided
          </Typography>
          <Table size="small" aria-label="Control totals per upload">
            <TableHead>
              <TableRow>
                <TableCell>Upload</TableCell>
                <TableCell align="right">Submitted</TableCell>
                <TableCell align="right">Initiated or later</TableCell>
                <TableCell align="right">Declined</TableCell>
                <TableCell align="right">Accepted, not yet decided</TableCell>
                <TableCell>Result</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {summary.uploads.map((u) => {
                const fmt = (list: { currencyCode: string; count: number; amount: number }[]) =>
                  list.map((t) => `${t.count} · ${formatMinor(t.amount, t.currencyCode)}`).join(', ') || '0';
                return (
                  <TableRow key={u.uploadId}>
                    <TableCell>
                      {u.workspaceName}
                      <Typography variant="body2" color="text.secondary">
                        {time(u.createdAt)}
                      </Typography>
                    </TableCell>
                    <TableCell align="right">{fmt(u.submitted)}</TableCell>
                    <TableCell align="right">{fmt(u.accepted)}</TableCell>
                    <TableCell align="right">{fmt(u.declined)}</TableCell>
                    <TableCell align="right">{fmt(u.pending)}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={u.reconciled ? 'success' : 'warning'}
                        label={u.reconciled ? 'Reconciled' : 'Does not add up'}
                        data-testid="upload-reconciled"
                      />
                      {u.notes.map((n) => (
                        <Typography key={n} variant="body2">
                          {n}
                        </Typography>
                      ))}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </>
      )}
    </Paper>
  );
}

/** Reconcile: every donation of the uploads followed to the end of its life, declined ones put right. */
export default function ReconcilePage() {
  const [donations, setDonations] = useState<DonationView[]>([]);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [lastRefreshAt, setLastRefreshAt] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useState<{ id: string; done: number; total: number | null } | null>(null);
  const [status, setStatus] = useState<DonationStatus | ''>('');
  const [bulk, setBulk] = useState('');
  const [page, setPage] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [searchedAllAt, setSearchedAllAt] = useState<string | null>(null);

  const loadSummary = useCallback(async () => {
    const s = await desk['donations.summary']({});
    if (s.ok) setSummary(s.value);
  }, []);

  useEffect(() => {
    let live = true;
    void desk['donations.list']({ cached: true }).then((r) => {
      if (!live) return;
      if (r.ok) {
        setDonations(r.value.donations);
        setLastRefreshAt(r.value.lastRefreshAt);
      } else setError(r.error.message);
    });
    void desk['donations.summary']({}).then((s) => live && s.ok && setSummary(s.value));
    const off = desk.on('job.progress', (p: EventPayload<'job.progress'>) => {
      setJob((current) =>
        current && current.id === p.jobId ? { ...current, done: p.done, total: p.total } : current,
      );
    });
    return () => {
      live = false;
      off();
    };
  }, []);

  // What the background refresh learnt shows without a visit elsewhere (this page's own listings
  // answer with their donations already).
  const ownJob = useRef<string | null>(null);
  useEffect(
    () =>
      desk.on('job.status', (s: EventPayload<'job.status'>) => {
        if (s.kind === 'donations' && s.status === 'succeeded' && s.jobId !== ownJob.current) {
          void reloadCached();
        }
      }),
    // reloadCached reads only stable setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  /**
   * Reads the uploads' donations from the service, every page; with `everything`, every donation of
   * the account (to find a correction whose answer was lost), then shows the uploads' ones again.
   */
  async function refresh(everything = false) {
    const id = `reconcile-${Date.now()}`;
    // A correction sent after the reading began may sit on a page already read: only those sent
    // before this moment can be judged by it.
    const startedAt = new Date().toISOString();
    ownJob.current = id;
    setJob({ id, done: 0, total: null });
    setError(null);
    const r = await desk['donations.list']({ jobId: id, ...(everything ? { bulkIds: [] } : {}) });
    setJob(null);
    if (!r.ok) return setError(r.error.message);
    if (everything) {
      setSearchedAllAt(startedAt);
      return reloadCached();
    }
    setDonations(r.value.donations);
    setLastRefreshAt(r.value.lastRefreshAt);
    await loadSummary();
  }

  async function reloadCached() {
    const r = await desk['donations.list']({ cached: true });
    if (r.ok) setDonations(r.value.donations);
    await loadSummary();
  }

  /** Each bulk's upload (from the ledger), and each workspace's name, for people rather than ids. */
  const uploadOfBulk = useMemo(
    () => new Map((summary?.uploads ?? []).flatMap((u) => u.bulkIds.map((b) => [b, u] as const))),
    [summary],
  );
  const workspaceNames = useMemo(
    () => new Map((summary?.uploads ?? []).map((u) => [u.workspaceId, u.workspaceName])),
    [summary],
  );
  const bulkLabel = (bulkId: string) => {
    const upload = uploadOfBulk.get(bulkId);
    return upload ? `${upload.workspaceName}, ${time(upload.createdAt)}` : bulkId;
  };
  // The ledger's bulks first (a bulk with no donation read yet is a choice too), then any other seen.
  const bulks = useMemo(
    () => [
      ...new Set([...uploadOfBulk.keys(), ...donations.map((d) => d.bulkId).filter((b): b is string => !!b)]),
    ],
    [donations, uploadOfBulk],
  );
  const shown = useMemo(
    () =>
      donations.filter(
        (d) =>
          (!status || d.state === status) &&
          (!bulk || d.bulkId === bulk || (bulk === NO_BULK && d.bulkId === null)),
      ),
    [donations, status, bulk],
  );
  const declined = useMemo(() => donations.filter((d) => d.state === 'DECLINED'), [donations]);
  // A reload (a background refresh) may leave fewer rows than the page shown: its last page then.
  const currentPage = Math.min(page, Math.max(0, Math.ceil(shown.length / 50) - 1));
  const pageRows = shown.slice(currentPage * 50, currentPage * 50 + 50);
  // The chosen donation as last read, so its states seen follow a refresh.
  const selected = useMemo(() => donations.find((d) => d.id === selectedId) ?? null, [donations, selectedId]);

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Reconcile</Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Button onClick={() => void refresh()} disabled={!!job}>
          Refresh from the service
        </Button>
        {job && (
          <Button variant="outlined" onClick={() => void desk['donations.cancel']({ jobId: job.id })}>
            Cancel
          </Button>
        )}
        <Button variant="outlined" onClick={() => setCreating(true)}>
          New donation
        </Button>
        <Typography color="text.secondary">Last refreshed: {time(lastRefreshAt)}</Typography>
      </Stack>
      <SingleDonationDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => void reloadCached()}
      />
      {job && (
        <Box role="status" aria-live="polite">
          <Typography variant="body2">
            Reading donations from the service… {job.done.toLocaleString()} so far
          </Typography>
          <LinearProgress
            variant={job.total ? 'determinate' : 'indeterminate'}
            value={job.total ? (job.done / job.total) * 100 : 0}
            aria-label="Reading donations"
          />
        </Box>
      )}
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}

      {summary && <StatusTotals summary={summary} />}
      <DeclinedPanel
        donations={declined}
        onChanged={() => void reloadCached()}
        onSearchAll={() => void refresh(true)}
        busyListing={!!job}
        searchedAllAt={searchedAllAt}
      />

      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="donations-title">
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }} useFlexGap>
          <Typography variant="h2" id="donations-title" sx={{ flexGrow: 1 }}>
            Donations ({shown.length.toLocaleString()})
          </Typography>
          <TextField
            select
            size="small"
            label="Status"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DonationStatus | '');
              setPage(0);
            }}
            sx={{ minWidth: 160 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Every status</MenuItem>
            {statuses.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Bulk"
            value={bulk}
            onChange={(e) => {
              setBulk(e.target.value);
              setPage(0);
            }}
            sx={{ minWidth: 200 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Every bulk</MenuItem>
            <MenuItem value={NO_BULK}>Sent one by one (no bulk)</MenuItem>
            {bulks.map((b) => (
              <MenuItem key={b} value={b}>
                {bulkLabel(b)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Donations">
            <TableHead>
              <TableRow>
                <TableCell>Recipient</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell>Donor</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Last update</TableCell>
                <TableCell>Payment</TableCell>
                <TableCell>Receipt</TableCell>
                <TableCell>Metadata</TableCell>
                <TableCell>Bulk</TableCell>
                <TableCell>Source row</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {pageRows.map((d) => (
                <TableRow
                  key={d.id}
                  hover
                  selected={selected?.id === d.id}
                  onClick={() => setSelectedId(d.id)}
                  data-testid="donation-row"
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell>
                    <Button
                      variant="text"
                      size="small"
                      onClick={() => setSelectedId(d.id)}
                      sx={{ textTransform: 'none', p: 0 }}
                    >
                      {d.recipientId}
                    </Button>
                  </TableCell>
                  <TableCell align="right">{formatMinor(d.amount, d.currencyCode)}</TableCell>
                  <TableCell>{d.donorName ?? '—'}</TableCell>
                  <TableCell>
                    <span style={{ color: statusColour[d.state], fontWeight: 600 }}>{d.state}</span>
                  </TableCell>
                  <TableCell>{time(d.statusLastUpdated)}</TableCell>
                  <TableCell>{d.payablePaymentType ?? '—'}</TableCell>
                  <TableCell>{d.receiptId ?? '—'}</TableCell>
                  <TableCell
                    sx={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {Object.entries(d.metadata)
                      .map(([k, v]) => `${k}=${v}`)
                      .join('; ')}
                  </TableCell>
                  <TableCell data-testid="donation-bulk">
                    {d.bulkId ? (
                      <span title={d.bulkId}>{uploadOfBulk.get(d.bulkId)?.workspaceName ?? d.bulkId}</span>
                    ) : (
                      'one by one'
                    )}
                  </TableCell>
                  <TableCell data-testid="donation-source-row">
                    {d.row
                      ? `row ${d.row.rowNumber ?? 'new'}${
                          workspaceNames.has(d.row.workspaceId)
                            ? ` of “${workspaceNames.get(d.row.workspaceId)}”`
                            : ''
                        }${d.row.method === 'fingerprint' ? ' (by content)' : ''}`
                      : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        <TablePagination
          component="div"
          count={shown.length}
          page={currentPage}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={50}
          rowsPerPageOptions={[50]}
        />
        {selected && (
          <Box sx={{ mt: 1, p: 1.5, bgcolor: '#fafafa', borderRadius: 1 }} aria-live="polite">
            <Typography variant="h3" component="h3" gutterBottom>
              Donation {selected.id}
            </Typography>
            <Typography variant="body2">
              Bulk{' '}
              {selected.bulkId
                ? `${selected.bulkId}${uploadOfBulk.has(selected.bulkId) ? ` (${bulkLabel(selected.bulkId)})` : ''}`
                : '(single donation)'}{' '}
              · last asked {time(selected.lastSeenAt)}
              {selected.replaces ? ` · corrects ${selected.replaces}` : ''}
            </Typography>
            <Stack component="ol" sx={{ m: 0, pl: 2.5, fontSize: 14 }} aria-label="States seen">
              {selected.history.map((h, i) => (
                <li key={i}>
                  {h.state}: seen {time(h.seenAt)}
                  {h.statusLastUpdated ? ` (service: ${time(h.statusLastUpdated)})` : ''}
                </li>
              ))}
            </Stack>
          </Box>
        )}
      </Paper>

      <MonthReport />
    </Stack>
  );
}
