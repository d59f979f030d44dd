import { memo, startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
import { PAGE, readDeclined, takeFirstReads } from './firstReads';

type Summary = ChannelResponse<'donations.summary'>;
type Page = ChannelResponse<'donations.page'>;

/** The bulk filter's choice for donations made one at a time (single donations and corrections). */
const NO_BULK = '(none)';
/** No rows (yet): the same list each time, so what is memoised stays. */
const NONE: DonationView[] = [];

/**
 * What was shown when a reload brings the same answer (a refresh that changed nothing, as the month
 * report's own): nothing is drawn again.
 */
function sameAnswer<T>(shown: T | null, read: T): T {
  if (shown === read) return read;
  return shown !== null && JSON.stringify(shown) === JSON.stringify(read) ? shown : read;
}

/** Reconcile: every donation of the uploads followed to the end of its life, declined ones put right. */
export default function ReconcilePage() {
  // The first page, the declined list and the totals are asked for before the page is first drawn
  // (by the shell as it asks for this code, else here), all at once; each is used once, by the first
  // reading below. The first page and the totals are shown together, in one drawing: the first one
  // if they came before it.
  const [firstReads] = useState(takeFirstReads);
  const firstUsed = useRef({ page: false, declined: false });
  const answered = firstReads.answered;
  // Only the page on screen and the declined list come from main, filtered and counted by SQL.
  const [rows, setRows] = useState<Page | null>(() =>
    answered.page?.ok && answered.summary?.ok ? answered.page.value : null,
  );
  const [declinedPage, setDeclinedPage] = useState<Page | null>(null);
  const [summary, setSummary] = useState<Summary | null>(() =>
    answered.page?.ok && answered.summary?.ok ? answered.summary.value : null,
  );
  const [lastRefreshAt, setLastRefreshAt] = useState<string | null>(() =>
    answered.page?.ok && answered.summary?.ok ? answered.page.value.lastRefreshAt : null,
  );
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

  useEffect(() => {
    let live = true;
    const first = !firstUsed.current.page && version === 0 && !bulk && !status && page === 0;
    firstUsed.current.page = true;
    void (
      first
        ? Promise.all([firstReads.page, firstReads.summary])
        : Promise.all([
            desk['donations.page']({
              ...(bulk ? { bulk: bulk === NO_BULK ? null : bulk } : {}),
              ...(status ? { status } : {}),
              offset: page * PAGE,
              limit: PAGE,
            }),
            null,
          ])
    ).then(([r, s]) => {
      // The first totals are this reading's alone to show (the other reading asks for later ones).
      if (s?.ok) setSummary((shown) => sameAnswer(shown, s.value));
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
      // Drawn after what is above and beside it, without holding it up: it sits below the totals.
      if (r.ok) startTransition(() => setDeclinedPage((shown) => sameAnswer(shown, r.value)));
      else setError(r.error.message);
    });
    if (!first) {
      void desk['donations.summary']({}).then(
        (s) => live && s.ok && setSummary((shown) => sameAnswer(shown, s.value)),
      );
    }
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
  const refresh = useCallback(
    async (everything = false) => {
      const id = `reconcile-${Date.now()}`;
      // A correction sent after the reading began may sit on a page already read: only those sent
      // before this moment can be judged by it.
      const startedAt = new Date().toISOString();
      ownJob.current = id;
      setJob({ id, done: 0, total: null });
      setError(null);
      // Only the total comes back: the page on screen is read again from the database.
      const r = await desk['donations.list']({
        jobId: id,
        limit: 0,
        ...(everything ? { bulkIds: [] } : {}),
      });
      setJob(null);
      if (!r.ok) return setError(r.error.message);
      if (everything) setSearchedAllAt(startedAt);
      else setLastRefreshAt(r.value.lastRefreshAt);
      reloadCached();
    },
    [reloadCached],
  );
  const searchAll = useCallback(() => void refresh(true), [refresh]);
  const closeCreating = useCallback(() => setCreating(false), []);

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
  const bulkLabel = useCallback(
    (bulkId: string) => {
      const upload = uploadOfBulk.get(bulkId);
      if (!upload) return bulkId;
      const elsewhere = sentElsewhereNote(upload);
      return `${upload.workspaceName}, ${time(upload.createdAt)}${elsewhere ? ` (${elsewhere})` : ''}`;
    },
    [uploadOfBulk],
  );
  // The ledger's bulks first (a bulk with no donation read yet is a choice too), then any other seen.
  const bulks = useMemo(
    () => [...new Set([...uploadOfBulk.keys(), ...(rows?.bulkIds ?? [])])],
    [rows, uploadOfBulk],
  );
  const pageRows = rows?.donations ?? NONE;
  const declinedCounts = useMemo(
    () => (declinedPage ? { open: declinedPage.declinedOpen, total: declinedPage.total } : undefined),
    [declinedPage],
  );
  const chooseStatus = useCallback((s: DonationStatus | '') => {
    setStatus(s);
    setPage(0);
  }, []);
  const chooseBulk = useCallback((b: string) => {
    setBulk(b);
    setPage(0);
  }, []);

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Reconcile</Typography>
      <Actions job={job} lastRefreshAt={lastRefreshAt} onRefresh={refresh} onNew={setCreating} />
      <SingleDonationDialog open={creating} onClose={closeCreating} onCreated={reloadCached} />
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
        donations={declinedPage?.donations ?? NONE}
        counts={declinedCounts}
        onChanged={reloadCached}
        onSearchAll={searchAll}
        busyListing={!!job}
        searchedAllAt={searchedAllAt}
        replacementsShown={pageRows}
      />

      <Donations
        total={rows?.total ?? 0}
        status={status}
        onStatus={chooseStatus}
        bulk={bulk}
        bulks={bulks}
        bulkLabel={bulkLabel}
        onBulk={chooseBulk}
        rows={pageRows}
        page={page}
        onPage={setPage}
        selected={selected}
        onSelect={setSelected}
        uploadOfBulk={uploadOfBulk}
        sourceRow={sourceRow}
      />

      <MonthReport />
    </Stack>
  );
}

/**
 * The page's actions. Its own component, as the sections below are, so that an answer that changes
 * one part of the page (the declined list, a refresh's progress) draws that part only.
 */
const Actions = memo(function Actions({
  job,
  lastRefreshAt,
  onRefresh,
  onNew,
}: {
  job: { id: string } | null;
  lastRefreshAt: string | null;
  onRefresh(): Promise<void>;
  onNew(open: boolean): void;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
      <Button onClick={() => void onRefresh()} disabled={!!job}>
        Refresh from the service
      </Button>
      {job && (
        <Button variant="outlined" onClick={() => void desk['donations.cancel']({ jobId: job.id })}>
          Cancel
        </Button>
      )}
      <Button variant="outlined" onClick={() => onNew(true)}>
        New donation
      </Button>
      <Typography color="textSecondary">Last refreshed: {time(lastRefreshAt)}</Typography>
    </Stack>
  );
});

/** The donations table with its filters, its pages and the chosen donation's details. */
const Donations = memo(function Donations({
  total,
  status,
  onStatus,
  bulk,
  bulks,
  bulkLabel,
  onBulk,
  rows,
  page,
  onPage,
  selected,
  onSelect,
  uploadOfBulk,
  sourceRow,
}: {
  total: number;
  status: DonationStatus | '';
  onStatus(status: DonationStatus | ''): void;
  bulk: string;
  bulks: string[];
  bulkLabel(bulkId: string): string;
  onBulk(bulk: string): void;
  rows: DonationView[];
  page: number;
  onPage(page: number): void;
  selected: DonationView | null;
  onSelect(donation: DonationView): void;
  uploadOfBulk: ReadonlyMap<string, Summary['uploads'][number]>;
  sourceRow(d: DonationView): string;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="donations-title">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }} useFlexGap>
        <Typography variant="h2" id="donations-title" sx={{ flexGrow: 1 }}>
          Donations ({total.toLocaleString()})
        </Typography>
        <TextField
          select
          size="small"
          label="Status"
          value={status}
          onChange={(e) => onStatus(e.target.value as DonationStatus | '')}
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
          onChange={(e) => onBulk(e.target.value)}
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
              rows={rows}
              selectedId={selected?.id ?? null}
              onSelect={onSelect}
              uploadOfBulk={uploadOfBulk}
              sourceRow={sourceRow}
            />
          </ScrollRegion>
          <TablePagination
            component="div"
            count={total}
            page={page}
            onPageChange={(_, p) => onPage(p)}
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
  );
});
