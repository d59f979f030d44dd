import { memo, useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { DonationView } from '../../../../shared/contract/reconcileChannels';
import { CURRENCY_CODES, formatMinor } from '../../../../shared/amounts';
import { checkSingleDonation, type FieldTarget } from '../../../../shared/mapping';
import { count, donationStatusWord } from '../../../../shared/i18n';
import { desk } from '../../app/deskClient';
import { RecipientField } from './RecipientField';

type Fields = Partial<Record<FieldTarget, string>>;
interface Draft {
  clientRef: string;
  fields: Fields;
  withDonor: boolean;
  metadata: Array<{ key: string; value: string }>;
}

/** The form's draft survives a closed dialog or a crash of the window until the donation is made. */
const DRAFT_KEY = 'donation-desk.single-donation';

function freshDraft(currency = 'USD'): Draft {
  return {
    clientRef: crypto.randomUUID(),
    fields: { currencyCode: currency },
    withDonor: false,
    metadata: [],
  };
}

function loadDraft(): Draft {
  try {
    const saved = JSON.parse(localStorage.getItem(DRAFT_KEY) ?? 'null') as Draft | null;
    if (saved && typeof saved.clientRef === 'string' && saved.fields) return saved;
  } catch {
    // A damaged draft is dropped: the form starts empty.
  }
  return freshDraft();
}

/** The form's check before the dialog was first opened: nothing to say yet. */
const NOT_CHECKED: ReturnType<typeof checkSingleDonation> = { ok: false, issues: [] };

const DONOR_FIELDS: Array<[FieldTarget, string]> = [
  ['donor.fullName', 'Donor full name'],
  ['donor.email', 'Donor email'],
  ['donor.address.line1', 'Address line 1'],
  ['donor.address.line2', 'Address line 2'],
  ['donor.address.city', 'City'],
  ['donor.address.state', 'State or region'],
  ['donor.address.zip', 'ZIP or postcode'],
  ['donor.address.country', 'Country (two letters, e.g. US)'],
];

/**
 * One donation with every attribute of the service (recipient, foundation, amount and currency, an
 * optional donor with address, metadata), checked as it is typed by the same rules as a spreadsheet
 * row, then created with POST /donations by main and followed in the list like any other.
 */
export const SingleDonationDialog = memo(function SingleDonationDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(donation: DonationView): void;
}) {
  const [draft, setDraft] = useState<Draft>(loadDraft);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [created, setCreated] = useState<DonationView | null>(null);

  useEffect(() => {
    localStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
  }, [draft]);

  const recipient = draft.fields.recipientId ?? '';

  const form = useMemo(
    () => ({
      fields: draft.withDonor
        ? draft.fields
        : Object.fromEntries(Object.entries(draft.fields).filter(([k]) => !k.startsWith('donor.'))),
      metadata: draft.metadata,
    }),
    [draft],
  );
  // Checked once the dialog has been opened (and from then on, its fading out included): not while
  // Reconcile is first drawn with it closed.
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const result = useMemo(() => (opened ? checkSingleDonation(form) : NOT_CHECKED), [form, opened]);
  const issueOf = (target: string, index?: number) =>
    (tried || touched.has(index === undefined ? target : `metadata.${index}`)) &&
    result.issues.find(
      (i) =>
        i.severity === 'error' && i.target === target && (index === undefined || i.metadataIndex === index),
    );

  const setField = (target: FieldTarget, value: string) =>
    setDraft((d) => ({ ...d, fields: { ...d.fields, [target]: value } }));
  const setPair = (index: number, patch: Partial<{ key: string; value: string }>) =>
    setDraft((d) => ({ ...d, metadata: d.metadata.map((p, i) => (i === index ? { ...p, ...patch } : p)) }));
  const touch = (name: string) => setTouched((t) => (t.has(name) ? t : new Set(t).add(name)));

  function close() {
    setError(null);
    if (created) {
      setCreated(null);
      setTried(false);
      setTouched(new Set());
    }
    onClose();
  }

  async function submit(confirmRetry = false) {
    setTried(true);
    setError(null);
    if (!result.ok) return;
    setBusy(true);
    const r = await desk['donations.create']({
      clientRef: draft.clientRef,
      form,
      ...(confirmRetry ? { confirmRetry: true } : {}),
    });
    setBusy(false);
    if (!r.ok) return setError({ code: r.error.code, message: r.error.message });
    setCreated(r.value.donation);
    // The next donation starts afresh, keeping the currency just used.
    const next = freshDraft(draft.fields.currencyCode);
    setDraft(next);
    localStorage.setItem(DRAFT_KEY, JSON.stringify(next));
    onCreated(r.value.donation);
  }

  const textField = (target: FieldTarget, label: string, extra: { required?: boolean } = {}) => {
    const issue = issueOf(target);
    return (
      <TextField
        key={target}
        label={label}
        value={draft.fields[target] ?? ''}
        onChange={(e) => setField(target, e.target.value)}
        onBlur={() => touch(target)}
        error={!!issue}
        helperText={issue ? issue.message : undefined}
        required={extra.required ?? false}
        size="small"
        fullWidth
      />
    );
  };

  const recipientIssue = issueOf('recipientId');
  const currencyIssue = issueOf('currencyCode');

  return (
    <Dialog open={open} onClose={close} aria-labelledby="single-donation-title" maxWidth="sm" fullWidth>
      <DialogTitle id="single-donation-title">New donation</DialogTitle>
      <DialogContent>
        {created ? (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="success" role="status">
              Donation {created.id} created: {formatMinor(created.amount, created.currencyCode)} to{' '}
              {created.recipientId}, {donationStatusWord(created.state).toLowerCase()}. It is followed in the
              list like any other donation.
            </Alert>
          </Stack>
        ) : (
          <Stack
            spacing={2}
            sx={{ pt: 1 }}
            component="form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <RecipientField
              value={recipient}
              onChange={(v) => setField('recipientId', v)}
              active={open}
              required
              problem={recipientIssue ? recipientIssue.message : null}
              onBlur={() => touch('recipientId')}
            />
            {textField('foundationId', 'Foundation id (optional: the service chooses one otherwise)')}
            <Stack direction="row" spacing={2}>
              {textField('amount', 'Amount', { required: true })}
              <TextField
                select
                label="Currency"
                value={draft.fields.currencyCode ?? ''}
                onChange={(e) => setField('currencyCode', e.target.value)}
                size="small"
                sx={{ minWidth: 130 }}
                required
                error={!!currencyIssue}
                helperText={currencyIssue ? currencyIssue.message : undefined}
              >
                {CURRENCY_CODES.map((c) => (
                  <MenuItem key={c} value={c}>
                    {c}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <FormControlLabel
              control={
                <Checkbox
                  checked={draft.withDonor}
                  onChange={(e) => setDraft((d) => ({ ...d, withDonor: e.target.checked }))}
                />
              }
              label="On behalf of a donor (leave unticked for an anonymous company gift)"
            />
            {draft.withDonor && (
              <Stack spacing={2} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
                <Typography component="legend" variant="h3">
                  Donor
                </Typography>
                {DONOR_FIELDS.slice(0, 2).map(([t, l]) => textField(t, l))}
                <TextField
                  select
                  label="Receipt for the donor"
                  value={draft.fields['donor.receipted'] ?? ''}
                  onChange={(e) => setField('donor.receipted', e.target.value)}
                  size="small"
                >
                  <MenuItem value="">Not said</MenuItem>
                  <MenuItem value="yes">Yes, send the donor a receipt</MenuItem>
                  <MenuItem value="no">No receipt</MenuItem>
                </TextField>
                {DONOR_FIELDS.slice(2).map(([t, l]) => textField(t, l))}
              </Stack>
            )}
            <Stack spacing={1}>
              <Typography variant="h3">Metadata</Typography>
              {draft.metadata.map((pair, index) => {
                const issue = issueOf('metadata', index);
                return (
                  <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                    <TextField
                      label={`Key ${index + 1}`}
                      value={pair.key}
                      size="small"
                      onChange={(e) => setPair(index, { key: e.target.value })}
                      onBlur={() => touch(`metadata.${index}`)}
                      error={!!issue}
                      helperText={issue ? issue.message : undefined}
                    />
                    <TextField
                      label={`Value ${index + 1}`}
                      value={pair.value}
                      size="small"
                      sx={{ flexGrow: 1 }}
                      onChange={(e) => setPair(index, { value: e.target.value })}
                      onBlur={() => touch(`metadata.${index}`)}
                    />
                    <IconButton
                      aria-label={`Remove metadata pair ${index + 1}`}
                      onClick={() =>
                        setDraft((d) => ({ ...d, metadata: d.metadata.filter((_p, i) => i !== index) }))
                      }
                    >
                      ×
                    </IconButton>
                  </Stack>
                );
              })}
              <Button
                variant="text"
                sx={{ alignSelf: 'flex-start' }}
                onClick={() => setDraft((d) => ({ ...d, metadata: [...d.metadata, { key: '', value: '' }] }))}
              >
                Add metadata
              </Button>
            </Stack>
            {tried && !result.ok && (
              <Alert severity="error" role="alert">
                {count(result.issues.filter((i) => i.severity === 'error').length, 'thing')} to fix before the
                donation can be sent; each is shown on its field.
              </Alert>
            )}
            {error && (
              <Alert
                severity={error.code === 'MAYBE_CREATED' ? 'warning' : 'error'}
                role="alert"
                action={
                  error.code === 'MAYBE_CREATED' ? (
                    <Button color="inherit" size="small" onClick={() => void submit(true)} disabled={busy}>
                      Send again anyway
                    </Button>
                  ) : undefined
                }
              >
                {error.message}
              </Alert>
            )}
            <button type="submit" hidden aria-hidden tabIndex={-1} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {created ? (
          <>
            <Button variant="text" onClick={close}>
              Close
            </Button>
            <Button
              onClick={() => {
                setCreated(null);
                setTried(false);
                setTouched(new Set());
              }}
            >
              Another donation
            </Button>
          </>
        ) : (
          <>
            <Button
              variant="text"
              onClick={() => {
                setDraft(freshDraft(draft.fields.currencyCode));
                setTried(false);
                setTouched(new Set());
                setError(null);
              }}
              disabled={busy}
            >
              Clear
            </Button>
            <Button variant="text" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} disabled={busy}>
              {busy ? 'Creating…' : 'Create donation'}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
});
