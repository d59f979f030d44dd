import { Fragment, useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import IconButton from '@mui/material/IconButton';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Tooltip from '@mui/material/Tooltip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { IntentView, UploadApproval, UploadView } from '../../../../shared/contract/uploadChannels';
import { count, withCode } from '../../../../shared/i18n';
import { totalsInWords } from '../../lib/totalsWords';
import { dateTime, dateTimeSeconds, stepTimes } from '../../lib/dates';
import {
  intentErrorWords,
  intentNameWords,
  intentSentWords,
  intentStateWord,
  serviceIdWords,
  timelineSteps,
} from './intentWords';
import { RefusedRows } from './RefusedRows';
import { MaintenanceNotice } from './MaintenanceNotices';
import { noticeStillHolds, takeUploadNotice } from './uploadNotice';
import { environmentLabels, type EnvironmentId } from '../../../../shared/contract/environment';
import { copyText } from '../../components/copyText';
import { ScrollRegion } from '../../components/ScrollRegion';
import { desk } from '../../app/deskClient';
import { REPAIR_KEY } from '../../app/routes';
import { useOutcomeAnnouncements } from './useOutcomeAnnouncements';

const uploadStateLabels: Record<
  UploadView['state'],
  { label: string; color: 'default' | 'info' | 'success' | 'error' | 'warning' }
> = {
  'waiting-approval': { label: 'Waiting for approval', color: 'default' },
  sending: { label: 'Sending', color: 'info' },
  following: { label: 'At the service', color: 'info' },
  processed: { label: 'Processed', color: 'success' },
  error: { label: 'Needs repair', color: 'error' },
  stopped: { label: 'Stopped', color: 'warning' },
};

/** Team mode: where the upload's approval stands, in a sentence (the file it binds to on hover). */
function ApprovalNote({ approval, uploadId }: { approval: UploadApproval; uploadId: string }) {
  const by = approval.decidedBy
    ? ` by ${approval.decidedBy}${approval.decidedAt ? ` on ${dateTime(approval.decidedAt)}` : ''}`
    : '';
  const reason = approval.reason ? `: “${approval.reason}”` : '';
  const byApprover = approval.sender === 'approver';
  const elsewhere = approval.sentElsewhere;
  const sentBy = elsewhere
    ? ` by ${elsewhere.by ?? 'a colleague'}${elsewhere.computer ? ` from ${elsewhere.computer}` : ''}`
    : '';
  const words: Record<UploadApproval['state'], string> = {
    submitting: 'Being submitted to the team for approval.',
    waiting: byApprover
      ? 'Waiting for another person with the approver role to approve it; the approver then sends it from their computer, and this page follows it.'
      : 'Waiting for another person with the approver role to approve it; nothing is sent until then.',
    approved: byApprover
      ? `Approved${by}${reason}. ${approval.decidedBy ?? 'The approver'} sends it from their computer; this page follows it once it is at the service.`
      : `Approved${by}${reason}. It is sent from the preparer’s computer.`,
    rejected: `Rejected${by}${reason}. Nothing was sent.`,
    void: `The approval is void: the workspace was edited after it was submitted${reason}. Upload it again.`,
    sent: elsewhere
      ? `Approved${by}${reason}, and sent${sentBy} (not from this computer).`
      : approval.decidedBy
        ? `Approved${by}${reason}, and sent.`
        : 'Sent (the team’s rule asked for no approval).',
  };
  return (
    <Typography
      variant="body2"
      sx={{ mt: 1 }}
      data-testid="upload-approval"
      data-state={approval.state}
      title={`File SHA-256 ${approval.fileSha256}`}
    >
      {words[approval.state]}{' '}
      {(approval.state === 'waiting' || approval.state === 'approved' || approval.state === 'rejected') && (
        <Link href={`#/approvals/${encodeURIComponent(uploadId)}`}>See it in Approvals</Link>
      )}
    </Typography>
  );
}

const correctedLabel = { label: 'Corrected', color: 'success' as const };

const environmentWord = (id: string) =>
  id in environmentLabels ? environmentLabels[id as EnvironmentId] : id;

/**
 * A bulk named by what a person knows (workspace, file, when sent, where to); the service's id, which
 * the CLI and exports use, is in the tooltip and copied by the button beside it.
 */
function IntentName({ upload, intent }: { upload: UploadView; intent: IntentView }) {
  const [copied, setCopied] = useState(false);
  const idWords = serviceIdWords(intent.serviceId);
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Tooltip title={idWords} describeChild>
        <Box data-testid="intent-name" data-service-id={intent.serviceId ?? undefined}>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {intentNameWords(upload.workspaceName, intent)}
          </Typography>
          <Typography variant="body2" color="textSecondary" data-testid="intent-sent">
            {intentSentWords(intent, dateTimeSeconds)} ·{' '}
            <Box
              component="span"
              sx={upload.environment === 'production' ? { color: 'error.main', fontWeight: 600 } : {}}
            >
              {environmentWord(upload.environment)}
            </Box>
          </Typography>
        </Box>
      </Tooltip>
      {intent.serviceId && (
        <Tooltip title={copied ? 'Copied' : 'Copy the service’s id'} onClose={() => setCopied(false)}>
          <IconButton
            size="small"
            aria-label={`Copy the service’s id ${intent.serviceId}`}
            onClick={() => setCopied(copyText(intent.serviceId ?? ''))}
          >
            <ContentCopy fontSize="inherit" />
          </IconButton>
        </Tooltip>
      )}
    </Stack>
  );
}

/**
 * The steps in one band under the file's row, one after another as they happened: the date once, then
 * the time of later steps the same day.
 */
function Timeline({ intent, name }: { intent: IntentView; name: string }) {
  const steps = timelineSteps(intent.timeline);
  const times = stepTimes(steps.map((t) => t.at));
  return (
    <Box
      component="ol"
      sx={{
        m: 0,
        p: 0,
        fontSize: 13,
        listStyle: 'none',
        display: 'flex',
        flexWrap: 'wrap',
        columnGap: 1.5,
        rowGap: 0.25,
        counterReset: 'step',
        '& > li::before': {
          counterIncrement: 'step',
          content: 'counter(step) ". "',
          color: 'text.secondary',
        },
      }}
      aria-label={`Timeline of ${name}`}
    >
      {steps.map((t, i) => (
        <Box component="li" key={i}>
          <strong title={t.code}>{t.label}</strong> · {times[i]}
          {t.note ? ` · ${t.note}` : ''}
        </Box>
      ))}
    </Box>
  );
}

/** Which upload this one corrects, by when it was made (the service's id in a tooltip). */
function CorrectsWords({ bulkId, uploads }: { bulkId: string; uploads: UploadView[] }) {
  const corrected = uploads.find((o) => o.intents.some((i) => i.serviceId === bulkId));
  return (
    <span title={`Bulk ${bulkId}`} data-testid="upload-corrects">
      {corrected
        ? ` · corrects the upload of ${dateTimeSeconds(corrected.createdAt)}`
        : ` · corrects bulk ${bulkId}`}
    </span>
  );
}

/** Every upload and its bulk intents: where each stands, counts and totals, its timeline, and repair. */
export default function UploadsPage() {
  const [uploads, setUploads] = useState<UploadView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Left by the upload dialog: "Submitted for approval …" (team mode), shown once.
  const [notice] = useState(takeUploadNotice);
  useOutcomeAnnouncements(uploads);

  const load = useCallback(async () => {
    const r = await desk['upload.list']({});
    if (r.ok) {
      setUploads(r.value);
      setError(null);
    } else setError(r.error.message);
  }, []);

  useEffect(() => {
    let live = true;
    const reload = () =>
      void desk['upload.list']({}).then(
        (r) => live && (r.ok ? setUploads(r.value) : setError(r.error.message)),
      );
    reload();
    const off = desk.on('intent.updated', reload);
    // Team mode: an approver decided, or a colleague's computer sent a bulk of an upload listed here.
    const offNews = desk.on('team.news', reload);
    return () => {
      live = false;
      off();
      offNews();
    };
  }, []);

  function repair(intent: IntentView) {
    sessionStorage.setItem(
      REPAIR_KEY,
      JSON.stringify({ workspaceId: intent.workspaceId, intentId: intent.intentId }),
    );
    window.location.hash = '#/prepare';
  }

  async function checkNow(intent: IntentView) {
    const r = await desk['upload.refresh']({ intentId: intent.intentId });
    // The service's scheduled maintenance is not an error: the notice above says until when.
    if (!r.ok && r.error.code !== 'MAINTENANCE') setError(r.error.message);
    await load();
  }

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Uploads</Typography>
      <Typography color="textSecondary">
        Each upload is followed until the service has processed it, also after the app restarts. You are told
        when one finishes.
      </Typography>
      <MaintenanceNotice />
      {notice && noticeStillHolds(notice, uploads) && (
        <Alert severity="success" role="status" data-testid="upload-notice">
          {notice.text}
        </Alert>
      )}
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {uploads && uploads.length === 0 && (
        <Typography>Nothing uploaded yet. Open a workspace in Prepare and choose Upload.</Typography>
      )}
      {uploads?.map((u) => {
        // A rejected upload whose rejected files were all sent again needs nothing more.
        const rejected = u.intents.filter((i) => i.state === 'ERROR');
        const elsewhere = u.approval?.sentElsewhere;
        const state =
          u.state === 'error' && rejected.length > 0 && rejected.every((i) => i.correctedByUpload)
            ? correctedLabel
            : elsewhere && u.state === 'sending'
              ? // Sent, or to be sent, by another computer whose bulks this one has not seen yet.
                {
                  label:
                    u.approval?.state === 'sent'
                      ? `Sent by ${elsewhere.by ?? 'a colleague'}`
                      : `${elsewhere.by ?? 'The approver'} sends it`,
                  color: 'default' as const,
                }
              : uploadStateLabels[u.state];
        return (
          <Paper
            key={u.uploadId}
            variant="outlined"
            sx={{ p: 2 }}
            component="section"
            aria-label={`Upload of ${u.workspaceName}`}
          >
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
              <Typography variant="h2" component="h2" sx={{ flexGrow: 1 }}>
                {u.workspaceName}
              </Typography>
              <Chip label={state.label} color={state.color} data-testid="upload-state" />
              <Typography color="textSecondary">{dateTimeSeconds(u.createdAt)}</Typography>
            </Stack>
            <Typography sx={{ mt: 1 }} data-testid="upload-totals">
              {count(u.rows, 'row')}: {totalsInWords(u.totals)}
              {u.corrects && <CorrectsWords bulkId={u.corrects} uploads={uploads} />}
            </Typography>
            {u.approval && <ApprovalNote approval={u.approval} uploadId={u.uploadId} />}
            {u.stoppedReason && (
              <Alert severity="warning" sx={{ mt: 1 }}>
                {u.stoppedReason}
              </Alert>
            )}
            {/* Nothing is at the service while an upload waits for approval: no file table yet. */}
            {u.intents.length > 0 && (
              <ScrollRegion label={`Files of the upload of ${u.workspaceName}`}>
                <Table size="small" sx={{ mt: 1 }} aria-label="Files of this upload">
                  <TableHead>
                    <TableRow>
                      <TableCell>File</TableCell>
                      <TableCell>Status</TableCell>
                      <TableCell align="right">Rows</TableCell>
                      <TableCell align="right">Accepted</TableCell>
                      <TableCell align="right">Invalid</TableCell>
                      <TableCell>
                        <span className="visually-hidden">Actions</span>
                      </TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {u.intents.map((i) => (
                      <Fragment key={i.intentId}>
                        <TableRow data-testid="intent-row" sx={{ '& > td': { borderBottom: 0 } }}>
                          <TableCell>
                            <IntentName upload={u} intent={i} />
                          </TableCell>
                          <TableCell>
                            <Tooltip title={withCode(intentStateWord(i.state), i.state)} describeChild>
                              <strong data-testid="intent-state" data-status={i.state}>
                                {intentStateWord(i.state)}
                              </strong>
                            </Tooltip>
                            {i.error && (
                              <Tooltip
                                title={`The service said: ${intentErrorWords(i)?.serviceSaid ?? ''}`}
                                describeChild
                              >
                                <Typography variant="body2" color="error" data-testid="intent-error">
                                  {intentErrorWords(i)?.text}
                                </Typography>
                              </Tooltip>
                            )}
                            {i.state === 'ERROR' && !i.correctedByUpload && (
                              <RefusedRows intentId={i.intentId} />
                            )}
                            {i.correctedByUpload && (
                              <Typography variant="body2">Corrected by a later upload.</Typography>
                            )}
                          </TableCell>
                          <TableCell align="right">{i.rows.toLocaleString()}</TableCell>
                          <TableCell align="right">{i.counts.accepted?.toLocaleString() ?? '—'}</TableCell>
                          <TableCell align="right">{i.counts.invalid?.toLocaleString() ?? '—'}</TableCell>
                          <TableCell>
                            <Stack spacing={1}>
                              {i.state === 'ERROR' && !i.correctedByUpload && u.workspaceId !== '' && (
                                <Button size="small" onClick={() => repair(i)} sx={{ whiteSpace: 'nowrap' }}>
                                  Fix the rows
                                </Button>
                              )}
                              {i.state === 'ERROR' && !i.correctedByUpload && u.workspaceId === '' && (
                                <Typography variant="body2" data-testid="repair-elsewhere">
                                  Sent for {u.approval?.preparer ?? 'the preparer'}: the rows are fixed from
                                  their workspace, on their computer.
                                </Typography>
                              )}
                              {i.serviceId && !['PROCESSED', 'ERROR', 'abandoned'].includes(i.state) && (
                                <Button size="small" variant="outlined" onClick={() => void checkNow(i)}>
                                  Check now
                                </Button>
                              )}
                            </Stack>
                          </TableCell>
                        </TableRow>
                        <TableRow>
                          <TableCell colSpan={6} sx={{ pt: 0 }}>
                            <Timeline intent={i} name={intentNameWords(u.workspaceName, i)} />
                          </TableCell>
                        </TableRow>
                      </Fragment>
                    ))}
                  </TableBody>
                </Table>
              </ScrollRegion>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
