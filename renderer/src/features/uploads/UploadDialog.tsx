import { useEffect, useState } from 'react';
import { MaintenanceAheadWarning } from './MaintenanceNotices';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ChannelResponse, EventPayload } from '../../../../shared/contract';
import { formatMinor } from '../../../../shared/amounts';
import { count, plural } from '../../../../shared/i18n';
import { totalsInWords } from '../../lib/totalsWords';
import { dateTimeSeconds } from '../../lib/dates';
import { desk } from '../../app/deskClient';
import { useDesk } from '../../app/DeskContext';
import { useTeam } from '../../app/TeamContext';
import { leaveUploadNotice } from './uploadNotice';
import { whatGoes } from './whatGoes';

type Preview = ChannelResponse<'upload.preview'>;
type RowResult = ChannelResponse<'donations.correctFromWorkspace'>['results'][number];

/** The earlier file a row went out in is named by when; the service's id stays in a tooltip. */
const earlierFileWords = (id: string) => `The service’s id for the earlier file: ${id}`;

const stageLabels: Record<EventPayload<'upload.progress'>['stage'], string> = {
  validating: 'Checking every row again',
  building: 'Building the bulk file',
  compressing: 'Compressing',
  'creating-intent': 'Asking the service for an upload address',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
};

interface Props {
  open: boolean;
  workspaceId: string;
  /** When set, this sends a corrected file for a failed intent instead of a new upload. */
  resendIntentId?: string;
  /** Rows whose cell the service refused and that are unchanged since: sent as they are, refused again. */
  unchangedRefusals?: number;
  onClose(): void;
  onSent(uploadId: string): void;
}

/** What will be sent, to where, with the duplicate guard's questions; then the upload with its progress. */
export function UploadDialog({
  open,
  workspaceId,
  resendIntentId,
  unchangedRefusals = 0,
  onClose,
  onSent,
}: Props) {
  const { info } = useDesk();
  const { status: team } = useTeam();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [confirmAll, setConfirmAll] = useState(false);
  // "Send only the new rows": every row sent before stays out, nothing goes twice.
  const [onlyNew, setOnlyNew] = useState(false);
  /** Rows the person agreed to send again one by one; every flagged row needs a yes (or "all"). */
  const [confirmed, setConfirmed] = useState<Set<number>>(() => new Set());
  const [progress, setProgress] = useState<EventPayload<'upload.progress'> | null>(null);
  const [sending, setSending] = useState(false);
  /** Corrections of declined donations may also go one by one (POST /donations) instead of as a bulk file. */
  const [oneByOne, setOneByOne] = useState(false);
  const [results, setResults] = useState<RowResult[] | null>(null);
  const [jobProgress, setJobProgress] = useState<{ done: number; total: number } | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void desk['upload.preview']({ workspaceId, ...(resendIntentId ? { resendIntentId } : {}) }).then((r) => {
      if (!live) return;
      if (r.ok) setPreview(r.value);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [open, workspaceId, resendIntentId]);

  useEffect(() => desk.on('upload.progress', (p) => setProgress(p)), []);

  async function sendOneByOne() {
    setSending(true);
    setError(null);
    const jobId = `corrections-${Date.now()}`;
    const off = desk.on('job.progress', (p: EventPayload<'job.progress'>) => {
      if (p.jobId === jobId && p.total) setJobProgress({ done: p.done, total: p.total });
    });
    const result = await desk['donations.correctFromWorkspace']({ workspaceId, jobId });
    off();
    setSending(false);
    setJobProgress(null);
    if (!result.ok) return setError(result.error.message);
    setResults(result.value.results);
  }

  async function send() {
    if (oneByOne) return sendOneByOne();
    setSending(true);
    setError(null);
    const result = resendIntentId
      ? await desk['upload.resend']({ intentId: resendIntentId, ...(skipInvalid ? { skipInvalid } : {}) })
      : await desk['upload.start']({
          workspaceId,
          ...(skipInvalid ? { skipInvalid } : {}),
          ...(onlyNew
            ? { skipDuplicates: true }
            : confirmAll
              ? { confirmDuplicates: 'all' as const }
              : confirmed.size
                ? { confirmDuplicates: [...confirmed] }
                : {}),
        });
    setSending(false);
    if (!result.ok) return setError(result.error.message);
    if (result.value.problems.length) setError(result.value.problems.join(' '));
    leaveUploadNotice(
      result.value.upload.state === 'waiting-approval'
        ? {
            text: `Submitted for approval: “${result.value.upload.workspaceName}” waits for an approver. Nothing is sent to the giving service until it is approved; this page shows their decision as soon as it is made.`,
            uploadId: result.value.uploadId,
          }
        : null,
    );
    onSent(result.value.uploadId);
  }

  const environment = info?.environment;
  // Team mode, when the team's rule holds this upload for an approver: it is submitted, not sent.
  const rule = team?.mode === 'team' ? team.rule : null;
  const duplicates = preview?.duplicates ?? [];
  // What will actually go: with "send only the new rows", the rows never sent before and their totals.
  const going = preview ? whatGoes(preview, { onlyNew, resend: !!resendIntentId, oneByOne }, rule) : null;
  const forApproval = !!going?.forApproval;
  const blocked =
    !preview ||
    preview.valid === 0 ||
    preview.mappingProblems.length > 0 ||
    (preview.invalid > 0 && !skipInvalid && !oneByOne) ||
    (duplicates.length > 0 &&
      !onlyNew &&
      !confirmAll &&
      confirmed.size < duplicates.length &&
      !resendIntentId);
  // Rows of this upload never sent before (a row flagged twice, by this computer and a colleague, counts once).
  const newRows = preview?.onlyNew?.valid ?? 0;
  const sentBefore = preview ? preview.valid - newRows : 0;

  return (
    <Dialog
      open={open}
      onClose={sending ? undefined : onClose}
      aria-labelledby="upload-title"
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id="upload-title">
        {resendIntentId ? 'Send the corrected rows' : 'Upload to the giving service'}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {environment && (
            <Alert severity={environment.id === 'production' ? 'error' : 'info'}>
              {environment.id === 'production'
                ? 'This goes to Production: the donations are real and will be paid.'
                : `This goes to ${environment.label}.`}
            </Alert>
          )}
          {!results && <MaintenanceAheadWarning />}

          {forApproval && (
            <Alert severity="info" data-testid="upload-for-approval">
              The team&apos;s rule holds this upload for an approver: it is submitted for approval now, and
              nothing is sent to the giving service until another person approves it.
            </Alert>
          )}
          {!preview && !error && <LinearProgress aria-label="Checking the workspace" />}
          {preview && going && (
            <>
              <Typography data-testid="upload-summary">
                {resendIntentId
                  ? `${preview.valid.toLocaleString()} of the ${count(preview.rows, 'row')} without a donation ${plural(preview.valid, { one: 'is', other: 'are' })} ready to send again`
                  : going.leftOut
                    ? `${going.valid.toLocaleString()} of ${count(preview.rows, 'row')} will go (the ${count(going.leftOut, 'row')} sent before ${plural(going.leftOut, { one: 'is', other: 'are' })} left out)`
                    : `${preview.valid.toLocaleString()} of ${count(preview.rows, 'row')} ${plural(preview.valid, { one: 'is', other: 'are' })} ready`}
                {going.parts > 1 ? `, sent as ${going.parts} files` : ''}:{' '}
                <strong>{totalsInWords(going.totals)}</strong>.
              </Typography>
              {going.totals.length > 1 && (
                <Stack component="ul" sx={{ m: 0 }} aria-label="Per currency">
                  {going.totals.map((t) => (
                    <li key={t.currencyCode}>
                      {formatMinor(t.amount, t.currencyCode)} in {count(t.count, 'donation')}
                    </li>
                  ))}
                </Stack>
              )}
              {preview.replacements > 0 && !resendIntentId && (
                <RadioGroup
                  aria-label="How to send the corrections"
                  value={oneByOne ? 'single' : 'bulk'}
                  onChange={(e) => setOneByOne(e.target.value === 'single')}
                >
                  <FormControlLabel
                    value="bulk"
                    control={<Radio />}
                    label="As one bulk file (followed in Uploads)"
                  />
                  <FormControlLabel
                    value="single"
                    control={<Radio />}
                    label="One by one (POST /donations), each result shown here; rows with errors are left out"
                  />
                </RadioGroup>
              )}
              {resendIntentId && unchangedRefusals > 0 && (
                <Alert severity="warning" data-testid="unchanged-refusals">
                  {count(unchangedRefusals, 'row')} still{' '}
                  {plural(unchangedRefusals, { one: 'has', other: 'have' })} the service&apos;s refusal on an
                  unchanged cell: sent as {plural(unchangedRefusals, { one: 'it is', other: 'they are' })},
                  the service will refuse {plural(unchangedRefusals, { one: 'it', other: 'them' })} again.
                  Cancel and fix {plural(unchangedRefusals, { one: 'it', other: 'them' })} first (F8 goes to
                  each).
                </Alert>
              )}
              {preview.mappingProblems.map((p) => (
                <Alert key={p} severity="error">
                  {p}
                </Alert>
              ))}
              {preview.invalid > 0 && !oneByOne && (
                <FormControlLabel
                  control={
                    <Checkbox checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} />
                  }
                  label={`Leave out the ${count(preview.invalid, 'row')} that still ${plural(preview.invalid, { one: 'has', other: 'have' })} errors`}
                />
              )}
              {duplicates.length > 0 && !resendIntentId && !oneByOne && (
                <Alert severity="warning">
                  <Typography gutterBottom>
                    {count(duplicates.length, 'row')} already went out to{' '}
                    {environment?.label ?? 'this service'} in an earlier upload that was not rejected, for
                    example{' '}
                    <span
                      data-testid="duplicate-example"
                      title={duplicates[0] ? earlierFileWords(duplicates[0].intentId) : undefined}
                    >
                      row {duplicates[0]?.row ?? '(new)'}, sent
                      {duplicates[0]?.sentBy ? ` by ${duplicates[0].sentBy}` : ''}{' '}
                      {duplicates[0] ? dateTimeSeconds(duplicates[0].sentAt) : ''}
                    </span>
                    . Sending them again makes a second donation.
                  </Typography>
                  {newRows > 0 && (
                    <FormControlLabel
                      control={
                        <Checkbox
                          checked={onlyNew}
                          onChange={(e) => {
                            setOnlyNew(e.target.checked);
                            if (e.target.checked) setConfirmAll(false);
                          }}
                        />
                      }
                      label={`Send only the ${count(newRows, 'new row')}; leave out the ${count(sentBefore, 'row')} sent before`}
                    />
                  )}
                  {!onlyNew && (
                    <FormControlLabel
                      control={
                        <Checkbox checked={confirmAll} onChange={(e) => setConfirmAll(e.target.checked)} />
                      }
                      label="Yes, send all of these rows again"
                    />
                  )}
                  {!onlyNew && !confirmAll && duplicates.length <= 200 && (
                    <Stack
                      sx={{ maxHeight: 180, overflowY: 'auto', pl: 1 }}
                      role="group"
                      aria-label="Rows sent before"
                    >
                      {duplicates.map((d) => (
                        <FormControlLabel
                          key={d.rowKey}
                          control={
                            <Checkbox
                              size="small"
                              checked={confirmed.has(d.rowKey)}
                              onChange={(e) =>
                                setConfirmed((previous) => {
                                  const next = new Set(previous);
                                  if (e.target.checked) next.add(d.rowKey);
                                  else next.delete(d.rowKey);
                                  return next;
                                })
                              }
                            />
                          }
                          title={earlierFileWords(d.intentId)}
                          label={`Send row ${d.row ?? '(new)'} again (sent${d.sentBy ? ` by ${d.sentBy}` : ''} ${dateTimeSeconds(d.sentAt)})`}
                        />
                      ))}
                    </Stack>
                  )}
                </Alert>
              )}
            </>
          )}
          {progress && sending && (
            <Stack spacing={1} role="status" aria-live="polite">
              <Typography>
                {stageLabels[progress.stage]}
                {progress.parts > 1 ? ` (file ${progress.part + 1} of ${progress.parts})` : ''}
                {progress.total ? `: ${Math.round((progress.done / progress.total) * 100)}%` : '…'}
              </Typography>
              <LinearProgress
                variant={progress.total ? 'determinate' : 'indeterminate'}
                value={progress.total ? (progress.done / progress.total) * 100 : 0}
                aria-label="Upload progress"
              />
            </Stack>
          )}
          {jobProgress && (
            <Stack spacing={1} role="status" aria-live="polite">
              <Typography>
                Sending corrections one by one: {jobProgress.done} of {jobProgress.total}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={(jobProgress.done / jobProgress.total) * 100}
                aria-label="Corrections sent"
              />
            </Stack>
          )}
          {results && (
            <Stack spacing={1} data-testid="correction-results">
              <Alert severity={results.some((r) => r.outcome === 'failed') ? 'warning' : 'success'}>
                {count(results.filter((r) => r.outcome === 'replaced').length, 'correction')} created,{' '}
                {results.filter((r) => r.outcome === 'already-replaced').length} already done,{' '}
                {results.filter((r) => r.outcome === 'failed' || r.outcome === 'invalid').length} not sent.
              </Alert>
              <Stack component="ul" sx={{ m: 0, maxHeight: 220, overflowY: 'auto' }}>
                {results.map((r) => (
                  <li key={r.rowKey} data-testid="correction-result">
                    Row {r.rowNumber ?? `(new ${r.rowKey + 1})`}: {r.message}
                  </li>
                ))}
              </Stack>
            </Stack>
          )}
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="text" onClick={onClose} disabled={sending}>
          {results ? 'Close' : 'Cancel'}
        </Button>
        {!results && (
          <Button onClick={() => void send()} disabled={blocked || sending}>
            {forApproval ? (sending ? 'Submitting…' : 'Submit for approval') : sending ? 'Sending…' : 'Send'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
