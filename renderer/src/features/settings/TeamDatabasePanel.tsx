import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { desk } from '../../app/deskClient';
import { useDesk } from '../../app/DeskContext';
import { useTeam } from '../../app/TeamContext';
import { encryptionInWords, plaintextOverNetwork } from '../../../../shared/team/encryptionWords';
import { problemOnly, rolesInWords, approvalPolicyInWords } from '../../components/TeamBadge';
import { SettingsSection, SettingsStatus } from './SettingsSection';

type Feedback = { severity: 'success' | 'error' | 'info'; text: string } | null;

/**
 * Settings → Team database: the shared PostgreSQL server a team works on (the address with each
 * person's own login). Test tries what is typed without saving or switching; Connect saves it and switches to it;
 * Disconnect goes back to working alone. The password goes to main and never comes back.
 * (Keyed by the saved address, so the field starts again from what is saved when that changes.)
 */
export function TeamDatabasePanel() {
  const { settings, refresh } = useDesk();
  const team = useTeam();
  const saved = settings?.teamDatabase;
  const [address, setAddress] = useState(saved?.address ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  if (!saved) return null;
  const fromEnvironment = saved.source === 'environment';
  const status = team.status;

  async function test() {
    setBusy(true);
    setFeedback({ severity: 'info', text: 'Trying the team database…' });
    const typed = address.trim();
    const r = await desk['team.test'](typed ? { address: typed, ...(password ? { password } : {}) } : {});
    setBusy(false);
    if (!r.ok) return setFeedback({ severity: 'error', text: r.error.message });
    const { ok, message } = r.value;
    setFeedback({
      severity: ok ? 'success' : 'error',
      text: `${message}${ok ? ' Nothing was changed: press Connect to work with it.' : ''}`,
    });
  }

  async function save(event?: FormEvent) {
    event?.preventDefault();
    setBusy(true);
    const r = await desk['settings.save']({
      teamDatabase: { address: address.trim(), ...(password ? { password } : {}) },
    });
    setBusy(false);
    if (!r.ok) return setFeedback({ severity: 'error', text: r.error.message });
    setPassword('');
    await refresh();
    await team.refresh();
    setFeedback({ severity: 'success', text: 'Connected: this computer now works with the team database.' });
  }

  async function disconnect() {
    setBusy(true);
    const r = await desk['settings.save']({ teamDatabase: null });
    setBusy(false);
    if (!r.ok) return setFeedback({ severity: 'error', text: r.error.message });
    setPassword('');
    setAddress('');
    await refresh();
    await team.refresh();
    setFeedback({ severity: 'success', text: 'Disconnected: this computer works alone again.' });
  }

  return (
    <SettingsSection
      titleId="team-database-title"
      title="Team database"
      onSubmit={(e) => void save(e)}
      description="Working as a team, everyone connects to one PostgreSQL database with their own login: uploads are approved by a second person, rows sent from any computer are known on every other, and the audit trail is shared. Without one, this computer works alone."
    >
      {status?.mode === 'team' && (
        <SettingsStatus
          severity={
            status.reachable && !plaintextOverNetwork(status.encryption, status.local) ? 'success' : 'warning'
          }
          testId="team-database-status"
        >
          {status.reachable
            ? `Connected to ${status.server} as ${status.login ?? '?'}, ${rolesInWords(status.roles)}; ${encryptionInWords(status.encryption, status.local)}.${status.rule ? ` ${approvalPolicyInWords(status.rule)}` : ''}`
            : `${problemOnly(status.problem) || `${status.server} cannot be reached now.`} Preparing and checking still work; sending and approving need it.`}
        </SettingsStatus>
      )}
      {fromEnvironment && (
        <Alert severity="info">
          The address comes from DONATION_DESK_DATABASE_URL ({saved.server}), which wins over what is saved
          here. Unset the variable to use this setting.
        </Alert>
      )}
      <TextField
        id="team-database-address"
        label="Address"
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        placeholder="postgres://alice@db.example.com:5432/desk"
        helperText="Your own login on the team’s server, as your administrator gave it: postgres://login@server:port/database — over a network, add ?sslmode=verify-full&sslrootcert= and the full path of the team’s CA file"
        size="small"
        fullWidth
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        id="team-database-password"
        label="Password"
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        placeholder={saved.passwordStored ? 'A password is stored — type to replace it' : ''}
        helperText={saved.passwordNote}
        size="small"
        fullWidth
        autoComplete="new-password"
      />
      {feedback && (
        <SettingsStatus severity={feedback.severity} testId="team-database-feedback">
          {feedback.text}
        </SettingsStatus>
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <Button type="submit" disabled={busy || !address.trim()}>
          Connect
        </Button>
        <Button variant="outlined" onClick={() => void test()} disabled={busy}>
          Test
        </Button>
        {saved.address && (
          <Button variant="outlined" color="error" onClick={() => void disconnect()} disabled={busy}>
            Disconnect
          </Button>
        )}
      </Box>
    </SettingsSection>
  );
}
