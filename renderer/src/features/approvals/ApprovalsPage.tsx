import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ApprovalSummary } from '../../../../shared/contract';
import { count } from '../../../../shared/i18n';
import { environmentWord } from '../../../../shared/audit/describeAuditEntry';
import { desk } from '../../app/deskClient';
import { useSubRoute } from '../../app/routes';
import { useTeam } from '../../app/TeamContext';
import { approvalPolicyInWords } from '../../components/TeamBadge';
import { ReviewPage } from './ReviewPage';
import { StateChip, Totals } from './approvalLook';
import { dateTime } from '../../lib/dates';

function ApprovalList() {
  const { status, refresh: refreshTeam } = useTeam();
  const [show, setShow] = useState<'waiting' | 'all'>('all');
  const [approvals, setApprovals] = useState<ApprovalSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      void desk['approvals.list']({ state: show }).then((r) => {
        if (!live) return;
        if (r.ok) {
          setApprovals(r.value.approvals);
          setError(null);
        } else setError(`The approvals could not be read: ${r.error.message}`);
      });
    load();
    const off = desk.on('approvals.changed', load);
    const offNews = desk.on('team.news', load);
    return () => {
      live = false;
      off();
      offNews();
    };
  }, [show]);

  const waiting = approvals?.filter((a) => a.state === 'waiting').length ?? 0;

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Approvals</Typography>
      <Typography color="textSecondary">
        Uploads prepared by someone on the team wait here until another person with the approver role approves
        or rejects them. The team database checks every decision: nobody approves their own upload.
      </Typography>
      {status?.mode === 'team' && status.rule && (
        <Typography data-testid="approvals-rule">{approvalPolicyInWords(status.rule)}</Typography>
      )}
      {status?.mode === 'alone' && (
        <Alert severity="info">
          This computer works alone, so there is nothing to approve. A team database is set up in Settings.
        </Alert>
      )}
      {error && (
        <Alert
          severity="error"
          role="alert"
          onClose={() => {
            setError(null);
            void refreshTeam();
          }}
        >
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography role="status" sx={{ flexGrow: 1 }} data-testid="approvals-count">
          {approvals === null
            ? 'Reading the approvals…'
            : waiting === 0
              ? 'No upload is waiting for approval.'
              : `${count(waiting, 'upload waits', 'uploads wait')} for approval.`}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={show}
          onChange={(_e, v: 'waiting' | 'all' | null) => v && setShow(v)}
          aria-label="Which uploads to show"
          color="primary"
          sx={{
            '& .MuiToggleButton-root': { textTransform: 'none' },
            '& .MuiToggleButton-root:not(.Mui-selected)': {
              color: 'text.primary',
              bgcolor: 'background.paper',
            },
          }}
        >
          <ToggleButton value="waiting">Waiting only</ToggleButton>
          <ToggleButton value="all">All uploads</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {approvals && approvals.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Uploads for approval">
            <TableHead>
              <TableRow>
                <TableCell>Upload</TableCell>
                <TableCell>State</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>Prepared by</TableCell>
                <TableCell>Submitted</TableCell>
                <TableCell align="right">Rows declared</TableCell>
                <TableCell align="right">Totals declared</TableCell>
                <TableCell>Decided</TableCell>
                <TableCell>Sent by</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {approvals.map((a) => (
                <TableRow key={a.uploadId} data-testid="approval-row" data-upload={a.uploadId}>
                  <TableCell>
                    <Link href={`#/approvals/${encodeURIComponent(a.uploadId)}`} sx={{ fontWeight: 600 }}>
                      {a.workspaceName}
                    </Link>
                    <Typography variant="body2" color="textSecondary">
                      {environmentWord(a.environment)}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <StateChip state={a.state} />
                  </TableCell>
                  <TableCell>
                    {a.preparer}
                    <Typography variant="body2" color="textSecondary" sx={{ whiteSpace: 'nowrap' }}>
                      on {a.computer}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(a.createdAt)}</TableCell>
                  <TableCell align="right">{a.rows.toLocaleString()}</TableCell>
                  <TableCell align="right">
                    <Totals totals={a.totals} />
                  </TableCell>
                  <TableCell>
                    {a.decidedBy ? (
                      <>
                        {a.decidedBy}
                        {a.decidedAt && (
                          <Typography variant="body2" color="textSecondary">
                            {dateTime(a.decidedAt)}
                          </Typography>
                        )}
                        {a.reason && (
                          <Typography variant="body2" color="textSecondary">
                            “{a.reason}”
                          </Typography>
                        )}
                      </>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <TableCell data-testid="approval-sender" sx={{ minWidth: '8rem' }}>
                    {senderInWords(a)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
}

/** Who sent an upload, or whose computer sends it once approved. */
function senderInWords(a: ApprovalSummary): string {
  if (a.sentBy) return `${a.sentBy}${a.sentFrom ? ` from ${a.sentFrom}` : ''}`;
  if (a.state === 'rejected' || a.state === 'void') return '—';
  if (a.sender === 'approver') return a.decidedBy ? `${a.decidedBy} sends it` : 'The approver sends it';
  return `${a.preparer} sends it`;
}

/** Approvals: the team's uploads (waiting first) and, at `#/approvals/<id>`, the review of one. */
export default function ApprovalsPage() {
  const uploadId = useSubRoute();
  return uploadId ? <ReviewPage uploadId={uploadId} /> : <ApprovalList />;
}
