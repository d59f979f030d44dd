import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ApprovalReview } from '../../../../shared/contract';
import { formatMinor } from '../../../../shared/amounts';
import { count } from '../../../../shared/i18n';
import { environmentWord } from '../../../../shared/audit/describeAuditEntry';
import { desk } from '../../app/deskClient';
import { useTeam } from '../../app/TeamContext';
import { totalsInWords } from '../../lib/totalsWords';
import { dateTime } from '../../lib/dates';
import { StateChip } from './approvalLook';
import { ReviewRows } from './ReviewRows';
import { ReviewTotals } from './ReviewTotals';

type Deciding = 'approve' | 'reject' | null;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" color="textSecondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * One upload as an approver checks it before deciding: the control totals per currency against the
 * month before, the rows, the largest recipients, rows that already went out, the preparer's
 * warnings and the exact file's SHA-256 that the decision binds to.
 */
export function ReviewPage({ uploadId }: { uploadId: string }) {
  const { refresh: refreshTeam } = useTeam();
  const [review, setReview] = useState<ApprovalReview | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [deciding, setDeciding] = useState<Deciding>(null);
  // What the dialog asks, kept while it fades out after closing: an approval must not read
  // "Reject this upload?" for a moment once it is made.
  const [asking, setAsking] = useState<NonNullable<Deciding>>('approve');
  const ask = (kind: NonNullable<Deciding>) => {
    setAsking(kind);
    setDeciding(kind);
  };
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const load = useCallback(
    () =>
      desk['approvals.review']({ uploadId }).then((r) => {
        if (r.ok) {
          setReview(r.value);
          setLoadError(null);
        } else setLoadError(r.error.message);
      }),
    [uploadId],
  );

  useEffect(() => {
    void load();
    // Another approver decided, or the preparer voided it: the page says so at once.
    return desk.on('team.news', (news) => {
      if (news.uploadId === uploadId || news.uploadId === null) void load();
    });
  }, [load, uploadId]);

  async function decide() {
    if (!review || !deciding) return;
    setBusy(true);
    const r = await desk['approvals.decide']({
      uploadId,
      decision: deciding,
      fileSha256: review.fileSha256,
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    });
    setBusy(false);
    setDeciding(null);
    if (!r.ok) {
      setRefusal(r.error.message);
      setDone(null);
    } else {
      setRefusal(null);
      const sending = r.value.sending;
      setDone(
        r.value.state === 'rejected'
          ? `You rejected this upload. ${r.value.preparer} will see your reason.`
          : sending
            ? sending.problems.length === 0
              ? `You approved this upload and it was sent from this computer. Follow it under Uploads.`
              : `You approved this upload. ${sending.problems.join(' ')}`
            : r.value.sender === 'approver'
              ? `You approved this upload.`
              : `You approved this upload. ${r.value.preparer}’s computer sends it now.`,
      );
      setReason('');
    }
    await load();
    void refreshTeam();
  }

  const back = (
    <Link href="#/approvals" sx={{ alignSelf: 'flex-start' }}>
      ← All approvals
    </Link>
  );
  if (loadError) {
    return (
      <Stack spacing={2}>
        {back}
        <Typography variant="h1">Review</Typography>
        <Alert
          severity="error"
          role="alert"
          action={
            <Button color="inherit" variant="text" size="small" onClick={() => void load()}>
              Try again
            </Button>
          }
        >
          {loadError}
        </Alert>
      </Stack>
    );
  }
  if (!review) {
    return (
      <Stack spacing={2}>
        {back}
        <Typography role="status">Reading the upload…</Typography>
      </Stack>
    );
  }

  const file = review.file.checked ? review.file : null;
  const largest = file ? file.largestRecipients : review.largestRecipients;
  const warnings = file ? file.warnings : review.warnings;
  const canApprove = review.canDecide && review.approvalBlocked === null;
  const blockedId = 'review-blocked';
  // The team's rule when it was submitted: the approver who approves it sends it from here.
  const sendsHere = review.sender === 'approver';
  const whyNotId = 'review-why-not';

  return (
    <Stack spacing={2} sx={{ maxWidth: 1100 }}>
      {back}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h1">Review: {review.workspaceName}</Typography>
        <StateChip state={review.state} />
      </Box>
      {review.approvalBlocked !== null && (
        <Alert severity="error" id={blockedId} data-testid="review-blocked">
          {review.approvalBlocked}
        </Alert>
      )}

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 2, m: 0 }}
        >
          <Fact label="Prepared by">
            {review.preparer} on {review.computer}
          </Fact>
          <Fact label="Submitted">{dateTime(review.createdAt)}</Fact>
          <Fact label="Goes to">{environmentWord(review.environment)}</Fact>
          <Fact label="Rows">
            <span data-testid="review-rows">
              {file
                ? `${count(file.rows.length, 'donation')} in the file${file.rows.length === review.rows ? '' : ` (declared: ${review.rows.toLocaleString()})`}`
                : count(review.rows, 'donation')}
            </span>
          </Fact>
          {review.decidedBy && (
            <Fact label={review.state === 'rejected' ? 'Rejected by' : 'Decided by'}>
              {review.decidedBy}
              {review.decidedAt ? `, ${dateTime(review.decidedAt)}` : ''}
            </Fact>
          )}
          {review.reason && <Fact label="Reason">“{review.reason}”</Fact>}
          <Fact label="Sent by">
            <span data-testid="review-sender">
              {review.sentBy
                ? `${review.sentBy}${review.sentFrom ? ` from ${review.sentFrom}` : ''}`
                : sendsHere
                  ? 'The approver, from their computer'
                  : `${review.preparer}, from their computer`}
            </span>
          </Fact>
        </Box>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="review-totals">
        <Typography variant="h2" id="review-totals" sx={{ mb: 1 }}>
          Control totals
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
          {review.file.checked
            ? 'Computed on this computer from the file stored in the team database (its SHA-256 checked), beside what the preparer’s app declared.'
            : 'Only as the preparer’s app declared them: the file itself could not be read.'}
        </Typography>
        <ReviewTotals review={review} />
      </Paper>

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2 }}>
        <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="review-largest">
          <Typography variant="h2" id="review-largest" sx={{ mb: 1 }}>
            Largest recipients
          </Typography>
          {largest.length === 0 ? (
            <Typography color="textSecondary">None recorded.</Typography>
          ) : (
            <Table size="small" aria-labelledby="review-largest" data-testid="review-largest">
              <TableHead>
                <TableRow>
                  <TableCell>Recipient</TableCell>
                  <TableCell align="right">Donations</TableCell>
                  <TableCell align="right">Amount</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {largest.map((r) => (
                  <TableRow key={`${r.recipientId}-${r.currencyCode}`}>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{r.recipientId}</TableCell>
                    <TableCell align="right">{r.count.toLocaleString()}</TableCell>
                    <TableCell align="right">{formatMinor(r.amount, r.currencyCode)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Paper>
        <Stack spacing={2}>
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="review-out">
            <Typography variant="h2" id="review-out" sx={{ mb: 1 }}>
              Rows that already went out
            </Typography>
            <Typography data-testid="review-already-out">
              {file
                ? file.alreadySent === 0
                  ? 'None: the team sent no row of this file in another upload.'
                  : `${count(file.alreadySent, 'row')} of this file ${file.alreadySent === 1 ? 'was' : 'were'} already sent by the team in another upload (marked in the rows below).`
                : review.alreadyOut === 0
                  ? 'None: no row of this upload was sent before.'
                  : `${count(review.alreadyOut, 'row')} went out in an earlier upload; the preparer confirmed ${review.alreadyOut === 1 ? 'it goes' : 'they go'} again.`}
            </Typography>
          </Paper>
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="review-warnings">
            <Typography variant="h2" id="review-warnings" sx={{ mb: 1 }}>
              Warnings
            </Typography>
            {warnings.length === 0 ? (
              <Typography>None.</Typography>
            ) : (
              <Box component="ul" sx={{ m: 0, pl: 3 }} data-testid="review-warnings">
                {warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </Box>
            )}
          </Paper>
        </Stack>
      </Box>

      {file && (
        <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="review-rows-title">
          <Typography variant="h2" id="review-rows-title" sx={{ mb: 1 }}>
            The rows of the file
          </Typography>
          <ReviewRows rows={file.rows} />
        </Paper>
      )}

      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="review-file">
        <Typography variant="h2" id="review-file" sx={{ mb: 1 }}>
          The file
        </Typography>
        <Typography variant="body2" color="textSecondary">
          A decision holds for exactly this file (SHA-256); any edit after it makes the approval void.
        </Typography>
        <Typography
          data-testid="review-sha256"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', fontSize: 14, mt: 0.5 }}
        >
          {review.fileSha256}
        </Typography>
      </Paper>

      {refusal && (
        <Alert severity="error" role="alert" data-testid="review-refusal">
          The team database refused: {refusal}
        </Alert>
      )}
      {done && (
        <Alert severity="success" role="status">
          {done}
        </Alert>
      )}
      {!review.canDecide && review.whyNot && (
        <Alert severity="info" id={whyNotId} data-testid="review-why-not">
          {review.whyNot}
        </Alert>
      )}
      <Stack direction="row" spacing={2}>
        <Button
          color="success"
          disabled={!canApprove || busy}
          aria-describedby={!review.canDecide ? whyNotId : canApprove ? undefined : blockedId}
          onClick={() => ask('approve')}
        >
          {sendsHere ? 'Approve and send…' : 'Approve…'}
        </Button>
        <Button
          color="error"
          variant="outlined"
          disabled={!review.canDecide || busy}
          aria-describedby={review.canDecide ? undefined : whyNotId}
          onClick={() => ask('reject')}
        >
          Reject…
        </Button>
      </Stack>

      <Dialog
        open={deciding !== null}
        onClose={() => !busy && setDeciding(null)}
        aria-labelledby="decide-title"
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id="decide-title">
          {asking === 'approve'
            ? sendsHere
              ? 'Approve and send this upload?'
              : 'Approve this upload?'
            : 'Reject this upload?'}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              {review.workspaceName} from {review.preparer}:{' '}
              {totalsInWords(file ? file.totals : review.totals)} to {environmentWord(review.environment)}.{' '}
              {asking === 'approve'
                ? sendsHere
                  ? 'The team’s rule says the approver sends: once you approve, this computer sends this exact file (the one the preparer’s computer stored, checked by its SHA-256) and follows it under Uploads.'
                  : 'Once approved it can be sent. Your approval holds for this exact file only.'
                : 'It will not be sent. The preparer sees your reason and can prepare it again.'}
            </DialogContentText>
            <TextField
              label={asking === 'reject' ? 'Reason (required)' : 'Note (optional)'}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required={asking === 'reject'}
              multiline
              minRows={2}
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 2000 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button variant="text" onClick={() => setDeciding(null)} disabled={busy}>
            Cancel
          </Button>
          <Button
            color={asking === 'approve' ? 'success' : 'error'}
            disabled={busy || (asking === 'reject' && !reason.trim())}
            onClick={() => void decide()}
          >
            {asking === 'approve' ? (sendsHere ? 'Approve and send' : 'Approve') : 'Reject'}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
