import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AuditEntry, AuditFilter, ChannelResponse } from '../../../../shared/contract';
import {
  auditActionWord,
  describeAuditEntry,
  environmentWord,
} from '../../../../shared/audit/describeAuditEntry';
import { count } from '../../../../shared/i18n';
import { desk } from '../../app/deskClient';
import { utcDateTime } from '../../lib/dates';
import { useTeam } from '../../app/TeamContext';
import { base64ToBytes } from '../../app/bytes';
import { downloadBytes } from '../../lib/downloadBytes';
import { TrailStatus } from './TrailStatus';

const PAGE_SIZE = 50;

type Page = ChannelResponse<'audit.list'>;

const FIELDS = [
  { key: 'workspaceId', label: 'Workspace id' },
  { key: 'uploadId', label: 'Upload id' },
  { key: 'donationId', label: 'Donation id' },
] as const;

const emptyForm = {
  workspaceId: '',
  uploadId: '',
  donationId: '',
  person: '',
  since: '',
  until: '',
};
type Form = typeof emptyForm;

function filterOf(form: Form): AuditFilter {
  const filter: AuditFilter = {};
  for (const [key, value] of Object.entries(form) as Array<[keyof Form, string]>) {
    if (value.trim()) filter[key] = value.trim();
  }
  return filter;
}

/** "Nov 25, 2026, 9:05:12 AM UTC": the trail's own time, the same on every computer, in the one date format. */
const utc = (at: string) => utcDateTime(at, true);

function Subject({ entry }: { entry: AuditEntry }) {
  const parts = [
    entry.workspaceId && `Workspace ${entry.workspaceId}`,
    entry.uploadId && `Upload ${entry.uploadId}`,
    entry.donationId && `Donation ${entry.donationId}`,
  ].filter(Boolean);
  return <>{parts.length ? parts.map((p) => <div key={p as string}>{p}</div>) : '—'}</>;
}

/**
 * What only the computer that wrote the entry can know (its name, the workspace, the file's name):
 * said as that computer's report, since neither this app nor the team database can check it.
 */
function reportedByComputer(entry: AuditEntry): string {
  const fileName = entry.details.fileName;
  const parts = [
    `computer ${entry.computer}`,
    entry.workspaceId && `workspace ${entry.workspaceId}`,
    typeof fileName === 'string' && fileName && `file ${fileName}`,
  ].filter(Boolean);
  return `As reported by that computer: ${parts.join(', ')}.`;
}

/**
 * The audit trail: who imported, edited, sent, corrected, dismissed or changed a setting, and when.
 * Read from the database a page at a time, newest first, narrowed by the filters; exported whole
 * (every matching entry) to xlsx or CSV for the auditors.
 */
export default function AuditPage() {
  const inTeam = useTeam().status?.mode === 'team';
  const [form, setForm] = useState<Form>(emptyForm);
  const [filter, setFilter] = useState<AuditFilter>({});
  // The cursors of the pages shown so far: the last one is the page on screen.
  const [cursors, setCursors] = useState<Array<number | undefined>>([undefined]);
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const before = cursors.at(-1);

  useEffect(() => {
    let live = true;
    void desk['audit.list']({ filter, limit: PAGE_SIZE, ...(before ? { before } : {}) }).then((result) => {
      if (!live) return;
      if (result.ok) {
        setPage(result.value);
        setError(null);
      } else setError(`The audit trail could not be read: ${result.error.message}`);
    });
    return () => {
      live = false;
    };
  }, [filter, before]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter(filterOf(form));
    setCursors([undefined]);
  };
  const clear = () => {
    setForm(emptyForm);
    setFilter({});
    setCursors([undefined]);
  };

  const exportAs = useCallback(
    async (format: 'xlsx' | 'csv') => {
      setExporting(true);
      const result = await desk['audit.export']({ filter, format });
      setExporting(false);
      if (!result.ok) return setError(`The export could not be made: ${result.error.message}`);
      downloadBytes(
        result.value.fileName,
        base64ToBytes(result.value.base64),
        format === 'csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
    },
    [filter],
  );

  const shownFrom = (cursors.length - 1) * PAGE_SIZE + 1;
  const entries = page?.entries ?? [];

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Audit</Typography>
      <Typography color="textSecondary">
        {inTeam
          ? 'Who did what and when across the team (the team database’s trail): every import, cell edit, upload, approval, rejection, send, repair, correction, dismissal and settings change. Entries are never changed or removed.'
          : 'Who did what and when on this computer: every import, cell edit, upload, repair, correction, dismissal and settings change. Entries are never changed or removed.'}
      </Typography>
      <TrailStatus />
      <Paper
        variant="outlined"
        sx={{ p: 2 }}
        component="form"
        onSubmit={apply}
        aria-label="Filter the audit trail"
      >
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          {FIELDS.map((f) => (
            <TextField
              key={f.key}
              size="small"
              label={f.label}
              value={form[f.key]}
              onChange={(e) => setForm({ ...form, [f.key]: e.target.value })}
            />
          ))}
          <TextField
            select
            size="small"
            label="Person"
            value={form.person}
            onChange={(e) => setForm({ ...form, person: e.target.value })}
            sx={{ minWidth: 160 }}
            // "Everyone" shows when no one is chosen.
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Everyone</MenuItem>
            {(page?.people ?? []).map((p) => (
              <MenuItem key={p} value={p}>
                {p}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            type="date"
            label="From (UTC)"
            value={form.since}
            onChange={(e) => setForm({ ...form, since: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="date"
            label="To (UTC)"
            value={form.until}
            onChange={(e) => setForm({ ...form, until: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button type="submit" variant="contained">
            Show
          </Button>
          <Button onClick={clear}>Clear filters</Button>
        </Box>
      </Paper>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography role="status" sx={{ flexGrow: 1 }} data-testid="audit-count">
          {page === null
            ? 'Reading the audit trail…'
            : page.total === 0
              ? 'No entry matches these filters.'
              : `Entries ${shownFrom}–${shownFrom + entries.length - 1} of ${count(page.total, 'entry', 'entries')}, newest first`}
        </Typography>
        <Button variant="outlined" disabled={exporting || !page?.total} onClick={() => void exportAs('xlsx')}>
          Export xlsx
        </Button>
        <Button variant="outlined" disabled={exporting || !page?.total} onClick={() => void exportAs('csv')}>
          Export CSV
        </Button>
      </Box>
      {entries.length > 0 && (
        // Its own box scrolls sideways (a named region that takes focus, for the keyboard).
        <TableContainer
          component={Paper}
          variant="outlined"
          role="region"
          aria-label="Audit entries"
          tabIndex={0}
        >
          <Table size="small" aria-label="Audit trail">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>Who</TableCell>
                <TableCell>Environment</TableCell>
                <TableCell>Action</TableCell>
                <TableCell>What</TableCell>
                <TableCell>About</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map((entry) => (
                <TableRow key={entry.seq} data-testid="audit-entry">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{utc(entry.at)}</TableCell>
                  <TableCell>
                    {entry.person}
                    <Typography variant="body2" color="textSecondary">
                      {entry.computer}
                    </Typography>
                  </TableCell>
                  <TableCell>{environmentWord(entry.environment)}</TableCell>
                  <TableCell title={entry.action}>{auditActionWord(entry.action, entry.details)}</TableCell>
                  <TableCell sx={{ maxWidth: 520, overflowWrap: 'anywhere' }}>
                    {describeAuditEntry(entry)}
                    <details>
                      <summary>Details</summary>
                      <Typography variant="body2" color="textSecondary" data-testid="audit-reported">
                        {reportedByComputer(entry)}
                      </Typography>
                      <Box component="pre" sx={{ whiteSpace: 'pre-wrap', fontSize: 12, m: 0 }}>
                        {JSON.stringify(entry.details, null, 2)}
                      </Box>
                    </details>
                  </TableCell>
                  <TableCell sx={{ fontSize: 12, overflowWrap: 'anywhere' }}>
                    <Subject entry={entry} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer entries
        </Button>
        <Button
          disabled={!page?.nextBefore}
          onClick={() => page?.nextBefore && setCursors([...cursors, page.nextBefore])}
        >
          Older entries
        </Button>
      </Box>
    </Stack>
  );
}
