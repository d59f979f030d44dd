import { memo } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import type { DonationView } from '../../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../../shared/amounts';
import { codeWord, withCode } from '../../../../shared/i18n';
import { dateTime, dayWords } from '../../lib/dates';

/** The attribute a decline's pointer names, in words a person uses. */
function attributeOf(pointer: string): string {
  const field = pointer.replace(/^.*\/attributes\//, '').replace(/\//g, '.');
  const names: Record<string, string> = {
    'destination.recipientId': 'recipient',
    'destination.foundationId': 'foundation',
    'funds.amount': 'amount',
    'funds.currencyCode': 'currency',
  };
  return names[field] ?? (field || 'the donation as a whole');
}

/**
 * One of the service's reasons for a decline, in plain words; its code and status on hover (the
 * element's title: a tooltip component per row made a list of 500 slow to show).
 */
function Reason({ e }: { e: DonationView['errors'][number] }) {
  const code = e.code || 'DECLINED';
  return (
    <span
      title={`${withCode(e.title || codeWord(code), code)}${e.detail ? `: ${e.detail}` : ''}${e.status ? `; status ${e.status}` : ''}; about the ${attributeOf(e.pointer)}`}
      data-testid="decline-reason"
    >
      {codeWord(code)}
    </span>
  );
}

/** A replaced declined donation, named by what replaced it (its id stays in the details). */
export function replacedWords(
  resolution: { at: string; replacementId: string; by?: string },
  replacement: Pick<DonationView, 'amount' | 'currencyCode' | 'recipientId'> | undefined,
): string {
  const who = resolution.by ? ` by ${resolution.by}` : '';
  const what = replacement
    ? `a new donation of ${formatMinor(replacement.amount, replacement.currencyCode)} to ${replacement.recipientId}`
    : 'a new donation';
  return `Replaced${who} ${dayWords(resolution.at)} with ${what}.`;
}

/** A colleague's correction of a declined donation, as the team database has it. */
function elsewhereText(c: NonNullable<DonationView['correctionElsewhere']>): string {
  if (c.state === 'done') return `Replaced by ${c.by}${c.replacementId ? ` (${c.replacementId})` : ''}`;
  return `Being corrected by ${c.by}${c.computer ? ` (${c.computer})` : ''}`;
}

/**
 * A correction sent with no answer back: look for it among every donation of the account, or, once
 * that found nothing (or when the person is sure), send it again.
 */
function ReplacingActions(props: {
  at: string;
  /** When every donation was read after the correction was sent, and it was not there. */
  searched: string | null;
  busy: boolean;
  onSearchAll?(): void;
  onRetry(): void;
}) {
  return (
    <Stack spacing={0.5} sx={{ maxWidth: 380 }}>
      <Typography data-testid="resolution">
        {props.searched
          ? `Not among every donation of the account, read from ${dateTime(props.searched)}: the correction sent ${dateTime(props.at)} was not made, so sending it again is safe.`
          : `A correction sent ${dateTime(props.at)} got no answer: the service may have made it.`}
      </Typography>
      <Stack direction="row" spacing={1}>
        {props.onSearchAll && !props.searched && (
          <Button size="small" onClick={props.onSearchAll} disabled={props.busy}>
            Look for it at the service
          </Button>
        )}
        <Button
          size="small"
          variant={props.searched ? 'contained' : 'outlined'}
          onClick={props.onRetry}
          disabled={props.busy}
        >
          {props.searched ? 'Send it again' : 'Send again anyway'}
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * The rows' looks, given once by the list (see DeclinedPanel) rather than per row: as a Stack in a
 * column on a narrow window, in a row from md up, with a line above each.
 */
export const DECLINED_ROWS_SX = (theme: Theme) => ({
  '& .dd-declined': {
    display: 'flex',
    flexDirection: 'column',
    gap: theme.spacing(2),
    borderTop: `1px solid ${theme.palette.divider}`,
    paddingTop: theme.spacing(1),
    [theme.breakpoints.up('md')]: { flexDirection: 'row', alignItems: 'center' },
  },
  '& .dd-declined-what': { ...(theme.typography.body1 as object), margin: 0, flexGrow: 1 },
  '& .dd-declined-reasons': { margin: 0, paddingLeft: theme.spacing(2.5) },
  // As the Typography it replaces drew it (its colour prop there named no colour it knows).
  '& .dd-declined-note': {
    ...(theme.typography.body1 as object),
    margin: 0,
    color: theme.palette.text.secondary,
  },
  '& .dd-declined-actions': { display: 'flex', flexDirection: 'row', gap: theme.spacing(1) },
  '& .dd-declined-elsewhere': {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'center',
    gap: theme.spacing(1),
  },
});

export type DeclinedAction = 'correct' | 'dismiss' | 'retry';

interface RowProps {
  d: DonationView;
  fixable: boolean;
  picked: boolean;
  /** The corrected donation this one was replaced by, when the page has it. */
  replacement: DonationView | undefined;
  /** When every donation of the account was read after this one's correction was sent. */
  searched: string | null;
  busyListing: boolean;
  onSearchAll: (() => void) | undefined;
  onOpen(kind: DeclinedAction, d: DonationView): void;
  onToggle(ids: string[], on: boolean): void;
}

/** One declined donation: what it was, why it was declined, and what can be done with it. */
export const DeclinedRow = memo(function DeclinedRow({
  d,
  fixable,
  picked,
  replacement,
  searched,
  busyListing,
  onSearchAll,
  onOpen,
  onToggle,
}: RowProps) {
  return (
    <div className="dd-declined" data-testid="declined-donation">
      <Checkbox
        slotProps={{
          input: { 'aria-label': `Select ${formatMinor(d.amount, d.currencyCode)} to ${d.recipientId}` },
        }}
        checked={fixable && picked}
        disabled={!fixable}
        onChange={(e) => onToggle([d.id], e.target.checked)}
      />
      <div className="dd-declined-what">
        <strong>{formatMinor(d.amount, d.currencyCode)}</strong> to {d.recipientId}
        {d.row ? ` (row ${d.row.rowNumber ?? 'new'})` : ''}: {d.errors.length === 0 && 'no reason given'}
        {d.errors.length === 1 && <Reason e={d.errors[0]!} />}
        {d.errors.length > 1 && (
          <ul className="dd-declined-reasons" data-testid="decline-reasons">
            {d.errors.map((e, i) => (
              <li key={i}>
                <Reason e={e} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {d.resolution?.kind === 'replacing' ? (
        <ReplacingActions
          at={d.resolution.at}
          searched={searched}
          busy={busyListing}
          {...(onSearchAll ? { onSearchAll } : {})}
          onRetry={() => onOpen('retry', d)}
        />
      ) : d.resolution ? (
        <p className="dd-declined-note" data-testid="resolution">
          {d.resolution.kind === 'replaced'
            ? replacedWords(d.resolution, replacement)
            : d.resolution.by
              ? `Dismissed by ${d.resolution.by}: ${d.resolution.reason}`
              : `Dismissed: ${d.resolution.reason}`}
        </p>
      ) : d.inUpload ? (
        <p className="dd-declined-note" data-testid="resolution">
          Being replaced by the upload of “{d.inUpload.workspaceName}”
        </p>
      ) : d.correctionElsewhere ? (
        <div className="dd-declined-elsewhere">
          <p className="dd-declined-note" data-testid="correction-elsewhere" id={`elsewhere-${d.id}`}>
            {elsewhereText(d.correctionElsewhere)}
          </p>
          <Button size="small" disabled aria-describedby={`elsewhere-${d.id}`}>
            Correct
          </Button>
        </div>
      ) : (
        <div className="dd-declined-actions">
          <Button size="small" onClick={() => onOpen('correct', d)}>
            Correct
          </Button>
          <Button size="small" variant="outlined" onClick={() => onOpen('dismiss', d)}>
            Dismiss
          </Button>
        </div>
      )}
    </div>
  );
});
