import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { desk } from '../../app/deskClient';
import { SettingsSection, SettingsStatus } from './SettingsSection';
import { BROKEN_TRAIL_ADVICE, trailCheckSentence } from '../../../../shared/audit/trailCheckWords';

type Outcome = { severity: 'success' | 'error' | 'info'; lines: string[] };

const megabytes = (bytes: number) =>
  `${(bytes / 1_000_000).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;

/**
 * Settings → Data: the data folder's database (uploads, donations and their history, corrections,
 * locations) checked for damage, or copied to a file while the app keeps working, and the audit
 * trail checked link by link. The same as `donation-desk db check`, `db backup` and `audit verify`.
 */
export function DataPanel() {
  const [busy, setBusy] = useState<'check' | 'backup' | 'trail' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function check() {
    setBusy('check');
    setOutcome(null);
    const r = await desk['data.check']({});
    setBusy(null);
    if (!r.ok) return setOutcome({ severity: 'error', lines: [r.error.message] });
    const c = r.value;
    setOutcome(
      c.ok
        ? { severity: 'success', lines: [`The database ${c.path} is whole (${megabytes(c.bytes)}).`] }
        : {
            severity: 'error',
            lines: [`The database ${c.path} is damaged:`, ...c.problems, c.advice ?? ''].filter(Boolean),
          },
    );
  }

  async function checkTrail() {
    setBusy('trail');
    setOutcome(null);
    const r = await desk['audit.verify']({});
    setBusy(null);
    if (!r.ok)
      return setOutcome({
        severity: 'error',
        lines: [`The audit trail could not be checked: ${r.error.message}`],
      });
    const whole = r.value.every((c) => c.whole);
    setOutcome({
      severity: whole ? 'success' : 'error',
      lines: [...r.value.map(trailCheckSentence), ...(whole ? [] : [BROKEN_TRAIL_ADVICE])],
    });
  }

  async function backup() {
    setBusy('backup');
    setOutcome(null);
    const r = await desk['data.backup']({});
    setBusy(null);
    if (!r.ok) return setOutcome({ severity: 'error', lines: [r.error.message] });
    if (!r.value.written) return setOutcome({ severity: 'info', lines: ['No backup was made.'] });
    setOutcome({
      severity: 'success',
      lines: [`Backed up to ${r.value.path} (${megabytes(r.value.bytes)}). Keep it somewhere safe.`],
    });
  }

  return (
    <SettingsSection
      titleId="data-title"
      title="Data"
      spacing={1.5}
      description="Uploads, every donation with its history, corrections and locations are kept in one database in the data folder. Check it for damage, or back it up to a file; both work while the app is in use. Checking the audit trail shows whether any entry was changed, removed or added from outside the app."
    >
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => void check()} disabled={busy !== null}>
          {busy === 'check' ? 'Checking…' : 'Check the database'}
        </Button>
        <Button variant="outlined" onClick={() => void backup()} disabled={busy !== null}>
          {busy === 'backup' ? 'Backing up…' : 'Back up to a file'}
        </Button>
        <Button variant="outlined" onClick={() => void checkTrail()} disabled={busy !== null}>
          {busy === 'trail' ? 'Checking the trail…' : 'Check the audit trail'}
        </Button>
      </Stack>
      {outcome && (
        <SettingsStatus severity={outcome.severity} testId="data-outcome">
          {outcome.lines.map((line, i) => (
            <Typography key={i} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {line}
            </Typography>
          ))}
        </SettingsStatus>
      )}
    </SettingsSection>
  );
}
