import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { ApprovalSummary } from '../../../../shared/contract';
import { formatMinor } from '../../../../shared/amounts';

export const approvalStateLook: Record<
  ApprovalSummary['state'],
  { label: string; color: 'default' | 'info' | 'success' | 'error' | 'warning' }
> = {
  waiting: { label: 'Waiting for approval', color: 'warning' },
  approved: { label: 'Approved', color: 'success' },
  rejected: { label: 'Rejected', color: 'error' },
  void: { label: 'Void: edited after submission', color: 'default' },
  sent: { label: 'Approved and sent', color: 'success' },
};

export function StateChip({ state }: { state: ApprovalSummary['state'] }) {
  const look = approvalStateLook[state];
  return (
    <Chip
      size="small"
      label={look.label}
      color={look.color}
      // MUI's amber is too light for white text: a darker amber keeps "Waiting" readable.
      sx={state === 'waiting' ? { bgcolor: '#8a4b00', color: '#fff' } : undefined}
      data-testid="approval-state"
      data-state={state}
    />
  );
}

/** Each currency on its own line, in money format. */
export function Totals({ totals }: { totals: ApprovalSummary['totals'] }) {
  return (
    <>
      {totals.map((t) => (
        <Box key={t.currencyCode} sx={{ whiteSpace: 'nowrap' }}>
          {formatMinor(t.amount, t.currencyCode)}
        </Box>
      ))}
    </>
  );
}
