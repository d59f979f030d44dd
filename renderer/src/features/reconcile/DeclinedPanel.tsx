import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DECLINED_ROWS_SX, DeclinedRow, type DeclinedAction } from './DeclinedRow';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { isOpenResolution, type DonationView } from '../../../../shared/contract/reconcileChannels';
import { formatMinor, minorToMajorString, parseAmount } from '../../../../shared/amounts';
import { checkRecipientId } from '../../../../shared/donation';
import { codeWord, count } from '../../../../shared/i18n';
import { desk } from '../../app/deskClient';
import { OPEN_WORKSPACE_KEY } from '../../app/routes';
import { RecipientField } from './RecipientField';

/** Reasons that are about the recipient itself: another cause is the fix. */
const aboutRecipient = (d: DonationView): boolean =>
  d.errors.some(
    (e) =>
      e.code === 'CAUSE_NOT_IN_GOOD_STANDING' ||
      e.code === 'RECIPIENT_NOT_FOUND' ||
      e.pointer.endsWith('/destination/recipientId'),
  );

/** Failures after which the correction may have been made (its answer was lost or unreadable). */
const MAYBE_MADE = new Set(['AMBIGUOUS', 'BAD_RESPONSE']);

/** Open: neither replaced nor dismissed (a correction whose answer never came may not exist). */
const isOpen = (d: DonationView) => isOpenResolution(d.resolution);

type Action = { kind: DeclinedAction; donation: DonationView } | null;

/** Declined donations drawn at once; more follow as the list nears the window, this many at a time. */
const FIRST_ROWS = 10;
const MORE_ROWS = 100;

interface Props {
  /** The declined donations listed (open ones first when there are more than fit). */
  donations: DonationView[];
  /** How many there are in all, and how many are open, when the list may hold only the first. */
  counts?: { open: number; total: number } | undefined;
  onChanged(): void;
  /**
   * Reads every donation of the account from the service (a correction whose answer was lost shows
   * up as replaced if it was made); absent where that cannot be offered.
   */
  onSearchAll?(): void;
  /** A listing is running: nothing that depends on the service's list is offered meanwhile. */
  busyListing?: boolean;
  /**
   * When the last reading of every donation of the account began (ISO), if it ran while this page
   * showed: it can only speak for corrections sent before then.
   */
  searchedAllAt?: string | null;
  /** Donations the page has read, to name a replacement by its amount and recipient, not its id. */
  replacementsShown?: readonly DonationView[];
}

/** Declined donations grouped by the service's reason; each one corrected (a new donation) or dismissed. */

/** What a correction made, in the words of the money: "A corrected donation of $35.00 to … was created." */
export function correctedWords(
  replacement: Pick<DonationView, 'amount' | 'currencyCode' | 'recipientId'>,
): string {
  return `A corrected donation of ${formatMinor(replacement.amount, replacement.currencyCode)} to ${replacement.recipientId} was created. The declined one stays as the service keeps it, marked replaced; it no longer counts in the totals.`;
}

export const DeclinedPanel = memo(function DeclinedPanel({
  donations,
  counts,
  onChanged,
  onSearchAll,
  busyListing = false,
  searchedAllAt = null,
  replacementsShown,
}: Props) {
  const [action, setAction] = useState<Action>(null);
  // The dialog's content stays the action's until it has faded out: a dismissal must not read
  // "Create a corrected donation" for a moment once it is made.
  const [dialogOpen, setDialogOpen] = useState(false);
  const close = () => setDialogOpen(false);
  const [recipientId, setRecipientId] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [gridError, setGridError] = useState<string | null>(null);
  /** Why the last correction's answer never came (shown above the list, the dialog being closed). */
  const [lost, setLost] = useState<string | null>(null);
  /** What the last correction or dismissal did, said once it is done. */
  const [done, setDone] = useState<string | null>(null);

  /** The corrected donations the listed ones were replaced by, when the page has them. */
  const replacements = useMemo(
    () => new Map((replacementsShown ?? []).map((d) => [d.id, d])),
    [replacementsShown],
  );
  /** By reason, the commonest first; each group with where its rows start in the order shown. */
  const groups = useMemo(() => {
    const byCode = new Map<string, DonationView[]>();
    for (const d of donations) {
      const code = d.errors[0]?.code || 'UNSPECIFIED';
      const list = byCode.get(code);
      if (list) list.push(d);
      else byCode.set(code, [d]);
    }
    const sorted = [...byCode.entries()].sort((a, b) => b[1].length - a[1].length);
    const starts = sorted.map((_, i) => sorted.slice(0, i).reduce((n, [, list]) => n + list.length, 0));
    return sorted.map(([code, list], i) => [code, list, starts[i] ?? 0] as const);
  }, [donations]);

  // What is in view first: the first rows at once, the next ones as the list comes near the window
  // (or the keyboard moves into it), so a long list does not hold up the page under it.
  const [shown, setShown] = useState(FIRST_ROWS);
  const more = useRef<HTMLDivElement | null>(null);
  const showMore = useCallback(
    () => setShown((n) => (n < donations.length ? n + MORE_ROWS : n)),
    [donations.length],
  );
  useEffect(() => {
    const sentinel = more.current;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    const watch = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && showMore(), {
      rootMargin: '400px 0px',
    });
    watch.observe(sentinel);
    return () => watch.disconnect();
  }, [showMore, shown]);

  const open = useCallback((kind: NonNullable<Action>['kind'], donation: DonationView) => {
    setAction({ kind, donation });
    setDialogOpen(true);
    // Sending again means sending what was sent before, as it was fixed then.
    const sent =
      kind === 'retry' && donation.resolution?.kind === 'replacing' ? donation.resolution.sent : undefined;
    setRecipientId(sent?.recipientId ?? donation.recipientId);
    setAmount(
      minorToMajorString(sent?.amount ?? donation.amount, sent?.currencyCode ?? donation.currencyCode),
    );
    setReason('');
    setError(null);
  }, []);

  async function submit() {
    if (!action) return;
    setBusy(true);
    setError(null);
    setLost(null);
    setDone(null);
    if (action.kind === 'dismiss') {
      const r = await desk['donations.dismiss']({ donationId: action.donation.id, reason });
      setBusy(false);
      if (!r.ok) return setError(r.error.message);
      setDone(
        `The declined donation of ${formatMinor(action.donation.amount, action.donation.currencyCode)} to ${action.donation.recipientId} is dismissed: ${reason.trim()}`,
      );
    } else {
      const parsed = parseAmount(amount, action.donation.currencyCode);
      if (!parsed.ok) {
        setBusy(false);
        return setError(parsed.message);
      }
      const recipientProblem = checkRecipientId(recipientId.trim());
      if (recipientProblem?.severity === 'error') {
        setBusy(false);
        return setError(recipientProblem.message);
      }
      const r = await desk['donations.correct']({
        donationId: action.donation.id,
        changes: { recipientId: recipientId.trim(), amount: parsed.minor },
        // Sent again only when the person has said so, after looking for the first one.
        ...(action.kind === 'retry' ? { confirmRetry: true } : {}),
      });
      setBusy(false);
      if (!r.ok) {
        // An answer that never came leaves the donation "replacing" in main: the list shows it so.
        onChanged();
        if (MAYBE_MADE.has(r.error.code)) {
          // The correction may exist now: the dialog closes, so sending again takes a new look first.
          close();
          return setLost(r.error.message);
        }
        return setError(r.error.message);
      }
      setDone(correctedWords(r.value.replacement));
    }
    close();
    onChanged();
  }

  /**
   * Open declined donations can be fixed; those already in a corrections upload, or being corrected
   * (or corrected) by a colleague on the team database, cannot.
   */
  const fixable = (d: DonationView) => !d.resolution && !d.inUpload && !d.correctionElsewhere;
  const chosen = donations.filter((d) => fixable(d) && picked.has(d.id));
  const toggle = useCallback(
    (ids: string[], on: boolean) =>
      setPicked((p) => {
        const next = new Set(p);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [],
  );

  /** The chosen ones go to a new Prepare workspace, to be fixed with the grid's tools and sent as one bulk file. */
  async function fixInGrid() {
    setBusy(true);
    setGridError(null);
    const r = await desk['donations.fixInGrid']({ donationIds: chosen.map((d) => d.id) });
    setBusy(false);
    if (!r.ok) return setGridError(r.error.message);
    sessionStorage.setItem(OPEN_WORKSPACE_KEY, r.value.workspaceId);
    window.location.hash = '#/prepare';
  }

  if (donations.length === 0) return null;
  // Counted by the database when the list holds only the first of them.
  const open_ = counts?.open ?? donations.filter(isOpen).length;
  const total = counts?.total ?? donations.length;
  return (
    <Paper
      variant="outlined"
      sx={[{ p: 2 }, DECLINED_ROWS_SX]}
      component="section"
      aria-labelledby="declined-title"
      // Moving through the list from the keyboard draws the rows ahead of it.
      onFocus={shown < donations.length ? showMore : undefined}
    >
      <Typography variant="h2" id="declined-title" gutterBottom>
        Declined donations: {open_} open of {total}
      </Typography>
      {total > donations.length && (
        <Typography color="textSecondary" gutterBottom data-testid="declined-shown">
          The first {count(donations.length, 'declined donation')} are listed, open ones first.
        </Typography>
      )}
      <Typography color="textSecondary" gutterBottom>
        A declined donation cannot be changed. Correct it (a new donation is created and linked to it) or
        dismiss it with a reason; until then it stays open. To fix several together, tick them and open them
        in a grid: fill down, paste or find and replace there, then upload them as one bulk file.
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 1 }}>
        <Button onClick={() => void fixInGrid()} disabled={busy || chosen.length === 0}>
          Fix {chosen.length || ''} selected in a grid
        </Button>
        <Button
          variant="text"
          onClick={() =>
            toggle(
              donations.filter(fixable).map((d) => d.id),
              chosen.length === 0,
            )
          }
          disabled={!donations.some(fixable)}
        >
          {chosen.length === 0 ? 'Select all open' : 'Clear selection'}
        </Button>
      </Stack>
      {done && (
        <Alert
          severity="success"
          role="status"
          sx={{ mt: 1 }}
          onClose={() => setDone(null)}
          data-testid="declined-done"
        >
          {done}
        </Alert>
      )}
      {lost && (
        <Alert severity="warning" role="alert" sx={{ mt: 1 }} onClose={() => setLost(null)}>
          {lost} The donation below shows what to do next.
        </Alert>
      )}
      {gridError && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {gridError}
        </Alert>
      )}
      {groups.map(([code, list, first]) => (
        <Stack key={code} spacing={1} sx={{ mt: 2 }}>
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <Checkbox
              slotProps={{
                input: { 'aria-label': `Select every open donation declined as: ${codeWord(code)}` },
              }}
              checked={list.some(fixable) && list.filter(fixable).every((d) => picked.has(d.id))}
              indeterminate={
                list.filter(fixable).some((d) => picked.has(d.id)) &&
                !list.filter(fixable).every((d) => picked.has(d.id))
              }
              disabled={!list.some(fixable)}
              onChange={(e) =>
                toggle(
                  list.filter(fixable).map((d) => d.id),
                  e.target.checked,
                )
              }
            />
            <Typography variant="h3" component="h3" title={code}>
              {codeWord(code)} · {count(list.length, 'donation')}
            </Typography>
          </Stack>
          {list.map((d, i) =>
            first + i < shown ? (
              <DeclinedRow
                key={d.id}
                d={d}
                fixable={fixable(d)}
                picked={picked.has(d.id)}
                replacement={
                  d.resolution?.kind === 'replaced' ? replacements.get(d.resolution.replacementId) : undefined
                }
                searched={
                  d.resolution?.kind === 'replacing' && !!searchedAllAt && searchedAllAt > d.resolution.at
                    ? searchedAllAt
                    : null
                }
                busyListing={busyListing}
                onSearchAll={onSearchAll}
                onOpen={open}
                onToggle={toggle}
              />
            ) : null,
          )}
        </Stack>
      ))}
      {shown < donations.length && <div ref={more} data-testid="declined-more" aria-hidden />}
      <Dialog
        open={dialogOpen}
        onClose={close}
        slotProps={{ transition: { onExited: () => setAction(null) } }}
        aria-labelledby="declined-action-title"
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id="declined-action-title">
          {action?.kind === 'dismiss'
            ? 'Dismiss the declined donation'
            : action?.kind === 'retry'
              ? 'Send the correction again'
              : 'Create a corrected donation'}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {action?.kind === 'retry' && (
              <Alert severity="warning">
                The first correction may exist at the service. Send again only after looking for it (Look for
                it at the service): if both exist, the recipient gets the gift twice.
              </Alert>
            )}
            {action && action.kind !== 'dismiss' && action.donation.errors.length > 0 && (
              <Typography variant="body2" data-testid="correct-why">
                Declined: {action.donation.errors.map((e) => codeWord(e.code || 'DECLINED')).join('; ')}.
                {aboutRecipient(action.donation)
                  ? ' Pick another cause below (type its name), or the right id.'
                  : ' Change what the service objected to.'}
              </Typography>
            )}
            {action && action.kind !== 'dismiss' ? (
              <>
                <RecipientField
                  value={recipientId}
                  onChange={setRecipientId}
                  active={dialogOpen}
                  label="Recipient"
                  autoFocus={aboutRecipient(action.donation)}
                />
                <TextField
                  label={`Amount (${action.donation.currencyCode})`}
                  value={amount}
                  onChange={(e) => setAmount(e.target.value)}
                />
              </>
            ) : (
              <TextField
                label="Reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                helperText="Recorded with the donation, e.g. “cause closed; gift moved to next month”."
              />
            )}
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button variant="text" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button
            onClick={() => void submit()}
            disabled={busy || (action?.kind === 'dismiss' && reason.trim().length < 3)}
          >
            {action?.kind === 'dismiss'
              ? 'Dismiss'
              : action?.kind === 'retry'
                ? 'Send again'
                : 'Create donation'}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
});
