import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ChannelResponse, EventPayload } from '../../../../shared/contract';
import type { DonationStatus, DonationView } from '../../../../shared/contract/reconcileChannels';
import { count, donationStatusWord } from '../../../../shared/i18n';
import { desk } from '../../app/deskClient';
import { DeclinedPanel } from './DeclinedPanel';
import { DonationDetails } from './DonationDetails';
import { DonationTable } from './DonationTable';
import { MonthReport } from './MonthReport';
import { SingleDonationDialog } from './SingleDonationDialog';
import { StatusTotals } from './StatusTotals';
import { STATUSES, sentElsewhereNote, time } from './statusLook';
import { ScrollRegion } from '../../components/ScrollRegion';

type Summary = ChannelResponse<'donations.summary'>;
type Page = ChannelResponse<'donations.page'>;

/** The bulk filter's choice for donations made one at a time (single donations and corrections). */
const NO_BULK = '(none)';
/** Rows per page of the donations table. */
const PAGE = 50;
/** Declined donations listed at most (open ones first); the heading counts all of them. */
const DECLINED_SHOWN = 500;

/**
 * What was shown when a reload brings the same answer (a refresh that changed nothing, as the month
 * report's own): nothing is drawn again.
 */
function sameAnswer<T>(shown: T | null, read: T): T {
  return shown !== null && JSON.stringify(shown) === JSON.stringify(read) ? shown : read;
}

/** The declined donations listed: open ones first, as many as are shown. */
const readDeclined = () =>
  desk['donations.page']({ status: 'DECLINED', order: 'openFirst', offset: 0, limit: DECLINED_SHOWN });

/**
 * What the page shows first (every upload, every status, its first page), asked for together; the
 * page and the totals before the declined list, the longest answer, which main makes after them.
 */
function readFirst() {
  return {
    page: desk['donations.page']({ offset: 0, limit: PAGE }),
    summary: desk['donations.summary']({}),
    declined: readDeclined(),
  };
}

/** Reconcile: every donation of the uploads followed to the end of its life, declined ones put right. */
export default function ReconcilePage() {
  // Only the page on screen and the declined list come from main, filtered and counted by SQL.
  const [rows, setRows] = useState<Page | null>(null);
  const [declinedPage, setDeclinedPage] = useState<Page | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [lastRefreshAt, setLastRefreshAt] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useState<{ id: string; done: number; total: number | null } | null>(null);
  const [status, setStatus] = useState<DonationStatus | ''>('');
  const [bulk, setBulk] = useState('');
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<DonationView | null>(null);
  const [creating, setCreating] = useState(false);
  const [searchedAllAt, setSearchedAllAt] = useState<string | null>(null);
  /** Bumped to read the page, the declined list and the totals again (after a change or a refresh). */
  const [version, setVersion] = useState(0);
  const reloadCached = useCallback(() => setVersion((v) => v + 1), []);
  // The first page, the declined list and the totals are asked for as the page is first drawn, all
  // at once, rather than once it is on screen; each is used once, by the first reading below.
  const [firstReads] = useState(readFirst);
  const firstUsed = useRef({ page: false, declined: false });

  useEffect(() => {
    let live = true;
    const first = !firstUsed.current.page && version === 0 && !bulk && !status && page === 0;
    firstUsed.current.page = true;
    void (
      first
        ? firstReads.page
        : desk['donations.page']({
            ...(bulk ? { bulk: bulk === NO_BULK ? null : bulk } : {}),
            ...(status ? { status } : {}),
            offset: page * PAGE,
            limit: PAGE,
          })
    ).then((r) => {
      if (!live) return;
      if (!r.ok) return setError(r.error.message);
      // A reload (a background refresh) may leave fewer rows than the page shown: its last page then.
      const last = Math.max(0, Math.ceil(r.value.total / PAGE) - 1);
      if (page > last) return setPage(last);
      setRows((shown) => sameAnswer(shown, r.value));
      setLastRefreshAt(r.value.lastRefreshAt);
      // The chosen donation as last read, so its states seen follow a refresh.
      setSelected((current) => (current && r.value.donations.find((d) => d.id === current.id)) ?? current);
    });
    return () => {
      live = false;
    };
  }, [bulk, status, page, version, firstReads]);

  useEffect(() => {
    let live = true;
    const first = !firstUsed.current.declined && version === 0;
    firstUsed.current.declined = true;
    void (first ? firstReads.declined : readDeclined()).then((r) => {
      if (!live) return;
      if (r.ok) setDeclinedPage((shown) => sameAnswer(shown, r.value));
      else setError(r.error.message);
    });
    void (first ? firstReads.summary : desk['donations.summary']({})).then(
      (s) => live && s.ok && setSummary((shown) => sameAnswer(shown, s.value)),
    );
    return () => {
      live = false;
    };
  }, [version, firstReads]);

  useEffect(
    () =>
      desk.on('job.progress', (p: EventPayload<'job.progress'>) => {
        setJob((current) =>
          current && current.id === p.jobId ? { ...current, done: p.done, total: p.total } : current,
        );
      }),
    [],
  );

  // What the background refresh learnt shows without a visit elsewhere (this page's own listings
  // reload when they end).
  const ownJob = useRef<string | null>(null);
  useEffect(
    () =>
      desk.on('job.status', (s: EventPayload<'job.status'>) => {
        if (s.kind === 'donations' && s.status === 'succeeded' && s.jobId !== ownJob.current) {
          reloadCached();
        }
      }),
    [reloadCached],
  );

  // Team mode: a colleague's bulk sent or moved on shows without a press (main has read the team's
  // bulks again; their donations follow with the background refresh that main starts, above).
  useEffect(
    () =>
      desk.on('team.news', (news: EventPayload<'team.news'>) => {
        if (news.kind === 'bulk' || news.kind === 'resync') reloadCached();
      }),
    [reloadCached],
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
    // Only the total comes back: the page on screen is read again from the database.
    const r = await desk['donations.list']({ jobId: id, limit: 0, ...(everything ? { bulkIds: [] } : {}) });
    setJob(null);
    if (!r.ok) return setError(r.error.message);
    if (everything) setSearchedAllAt(startedAt);
    else setLastRefreshAt(r.value.lastRefreshAt);
    reloadCached();
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
  const sourceRow = useCallback(
    (d: DonationView): string => {
      if (d.row) {
        return `row ${d.row.rowNumber ?? 'new'}${
          workspaceNames.has(d.row.workspaceId) ? ` of “${workspaceNames.get(d.row.workspaceId)}”` : ''
        }${d.row.method === 'fingerprint' ? ' (by content)' : ''}`;
      }
      // Team mode: a colleague's upload keeps its rows on the computer that sent it.
      const from = d.bulkId ? uploadOfBulk.get(d.bulkId)?.sentElsewhere : null;
      return from ? `on ${from.by}’s computer` : '—';
    },
    [uploadOfBulk, workspaceNames],
  );
  const bulkLabel = (bulkId: string) => {
    const upload = uploadOfBulk.get(bulkId);
    if (!upload) return bulkId;
    const elsewhere = sentElsewhereNote(upload);
    return `${upload.workspaceName}, ${time(upload.createdAt)}${elsewhere ? ` (${elsewhere})` : ''}`;
  };
  // The ledger's bulks first (a bulk with no donation read yet is a choice too), then any other seen.
  const bulks = useMemo(
    () => [...new Set([...uploadOfBulk.keys(), ...(rows?.bulkIds ?? [])])],
    [rows, uploadOfBulk],
  );
  const shownCount = rows?.total ?? 0;
  const pageRows = rows?.donations ?? [];
  const currentPage = page;

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
        <Typography color="textSecondary">Last refreshed: {time(lastRefreshAt)}</Typography>
      </Stack>
      <SingleDonationDialog open={creating} onClose={() => setCreating(false)} onCreated={reloadCached} />
      {job && (
        <Box role="status" aria-live="polite">
          <Typography variant="body2">
            Reading donations from the service… {count(job.done, 'donation')} read so far
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
        donations={declinedPage?.donations ?? []}
        counts={declinedPage ? { open: declinedPage.declinedOpen, total: declinedPage.total } : undefined}
        onChanged={reloadCached}
        onSearchAll={() => void refresh(true)}
        busyListing={!!job}
        searchedAllAt={searchedAllAt}
        replacementsShown={pageRows}
      />

      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="donations-title">
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }} useFlexGap>
          <Typography variant="h2" id="donations-title" sx={{ flexGrow: 1 }}>
            Donations ({shownCount.toLocaleString()})
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
            {STATUSES.map((s) => (
              <MenuItem key={s} value={s} title={s}>
                {donationStatusWord(s)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Upload"
            value={bulk}
            onChange={(e) => {
              setBulk(e.target.value);
              setPage(0);
            }}
            sx={{ minWidth: 200 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Every upload</MenuItem>
            <MenuItem value={NO_BULK}>Sent one by one</MenuItem>
            {bulks.map((b) => (
              <MenuItem key={b} value={b}>
                {bulkLabel(b)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <Box
          sx={{
            display: 'grid',
            // The details go under the list in a narrow window, so nothing pushes the page sideways;
            // beside it on a laptop, narrower there so the table keeps its columns.
            gridTemplateColumns: {
              xs: 'minmax(0, 1fr)',
              lg: 'minmax(0, 1fr) 300px',
              xl: 'minmax(0, 1fr) 340px',
            },
            gap: 2,
            alignItems: 'start',
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <ScrollRegion label="Donations, by recipient">
              <DonationTable
                rows={pageRows}
                selectedId={selected?.id ?? null}
                onSelect={setSelected}
                uploadOfBulk={uploadOfBulk}
                sourceRow={sourceRow}
              />
            </ScrollRegion>
            <TablePagination
              component="div"
              count={shownCount}
              page={currentPage}
              onPageChange={(_, p) => setPage(p)}
              rowsPerPage={PAGE}
              rowsPerPageOptions={[PAGE]}
            />
          </Box>
          <DonationDetails
            donation={selected}
            uploadName={(bulkId) => (uploadOfBulk.has(bulkId) ? bulkLabel(bulkId) : null)}
            sourceRow={sourceRow}
          />
        </Box>
      </Paper>

      <MonthReport />
    </Stack>
  );
}
