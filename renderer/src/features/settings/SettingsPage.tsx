import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  environmentIds,
  environmentLabels,
  type EnvironmentId,
  type RemoteEnvironmentId,
} from '../../../../shared/contract';
import { desk } from '../../app/deskClient';
import { useDesk } from '../../app/DeskContext';
import { SandboxClockPanel } from './SandboxClockPanel';
import { DataPanel } from './DataPanel';
import { TeamDatabasePanel } from './TeamDatabasePanel';
import { ServiceCalendarPanel } from './ServiceCalendarPanel';
import { SettingsStatus } from './SettingsSection';

const environmentHelp: Record<EnvironmentId, string> = {
  offline: 'A practice copy of the giving service on this computer. Nothing leaves your machine.',
  sandbox: 'The service’s test environment: real connection, no real money.',
  production: 'The live service: donations are real and will be paid.',
  custom: 'Any other address your giving-service contact has given you.',
};

interface Draft {
  baseUrl: string;
  tokenUrl: string;
  programDomain: string;
  clientId: string;
  clientSecret: string;
}

type Feedback = { severity: 'success' | 'error' | 'info'; text: string } | null;

export function SettingsPage() {
  const { settings, info, refresh } = useDesk();
  const [environment, setEnvironment] = useState<EnvironmentId>(settings?.environment ?? 'offline');
  const draftFor = (id: EnvironmentId): Draft => {
    const saved = id === 'offline' ? null : settings?.remotes[id];
    return saved
      ? { ...saved.addresses, clientId: saved.clientId, clientSecret: '' }
      : { baseUrl: '', tokenUrl: '', programDomain: '', clientId: '', clientSecret: '' };
  };
  const [draft, setDraft] = useState<Draft>(() => draftFor(environment));
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);

  const remote = environment === 'offline' ? null : settings?.remotes[environment];
  const chooseEnvironment = (id: EnvironmentId) => {
    setEnvironment(id);
    setDraft(draftFor(id));
    setFeedback(null);
  };

  if (!settings) return null;

  async function save(event?: FormEvent): Promise<boolean> {
    event?.preventDefault();
    setBusy(true);
    setFeedback(null);
    const result = await desk['settings.save']({
      environment,
      ...(environment === 'offline'
        ? {}
        : {
            remote: {
              id: environment as RemoteEnvironmentId,
              addresses: {
                baseUrl: draft.baseUrl,
                tokenUrl: draft.tokenUrl,
                programDomain: draft.programDomain,
              },
              clientId: draft.clientId,
              ...(draft.clientSecret ? { clientSecret: draft.clientSecret } : {}),
            },
          }),
    });
    setBusy(false);
    if (!result.ok) {
      setFeedback({ severity: 'error', text: hereInSettings(result.error.message) });
      return false;
    }
    setDraft((d) => ({ ...d, clientSecret: '' }));
    await refresh();
    setFeedback({ severity: 'success', text: 'Settings saved.' });
    return true;
  }

  /** Tries what is on screen; only Save changes the environment in force or writes anything. */
  async function testConnection() {
    setBusy(true);
    setFeedback({ severity: 'info', text: 'Testing the connection…' });
    const result = await desk['settings.testConnection']({
      environment,
      ...(environment === 'offline'
        ? {}
        : {
            remote: {
              addresses: {
                baseUrl: draft.baseUrl,
                tokenUrl: draft.tokenUrl,
                programDomain: draft.programDomain,
              },
              clientId: draft.clientId,
              ...(draft.clientSecret ? { clientSecret: draft.clientSecret } : {}),
            },
          }),
    });
    setBusy(false);
    if (!result.ok) return setFeedback({ severity: 'error', text: hereInSettings(result.error.message) });
    setFeedback({ severity: result.value.ok ? 'success' : 'error', text: result.value.message });
  }

  async function forgetSecret() {
    if (environment === 'offline') return;
    const result = await desk['settings.save']({ remote: { id: environment, clientSecret: '' } });
    if (result.ok) {
      await refresh();
      setFeedback({ severity: 'success', text: 'The client secret was forgotten.' });
    }
  }

  const field = (key: keyof Draft, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      id={`settings-${key}`}
      label={label}
      value={draft[key]}
      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      fullWidth
      size="small"
      {...extra}
    />
  );

  return (
    <Stack spacing={3}>
      <Stack
        spacing={3}
        component="form"
        onSubmit={save}
        aria-labelledby="settings-title"
        sx={{ maxWidth: 720 }}
      >
        <Typography variant="h1" id="settings-title">
          Settings
        </Typography>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <FormControl>
            <FormLabel id="environment-label">Environment</FormLabel>
            <RadioGroup
              aria-labelledby="environment-label"
              value={environment}
              onChange={(e) => chooseEnvironment(e.target.value as EnvironmentId)}
            >
              {environmentIds.map((id) => (
                <FormControlLabel
                  key={id}
                  value={id}
                  control={<Radio />}
                  label={
                    <Box>
                      <Typography component="span" sx={{ fontWeight: 600 }}>
                        {environmentLabels[id]}
                      </Typography>
                      <Typography
                        component="span"
                        color="textSecondary"
                        variant="body2"
                        sx={{ display: 'block' }}
                      >
                        {environmentHelp[id]}
                      </Typography>
                    </Box>
                  }
                  sx={{ alignItems: 'flex-start', my: 0.5, '& .MuiRadio-root': { pt: 0.5 } }}
                />
              ))}
            </RadioGroup>
          </FormControl>
        </Paper>

        {settings.environment === 'offline' && <SandboxClockPanel />}
        {/* Custom on the emulator (npm run emulator), as two people trying team mode on one machine use it. */}
        {settings.environment === 'custom' && (
          <SandboxClockPanel key={settings.remotes.custom.addresses.baseUrl} emulatorOnly />
        )}

        {remote && environment !== 'offline' && (
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack spacing={2}>
              <Typography variant="h2">{environmentLabels[environment]} connection</Typography>
              {field('baseUrl', 'Service address', { placeholder: 'https://api.example.org', type: 'url' })}
              {field('tokenUrl', 'Token address', {
                placeholder: 'https://auth.example.org/oauth2/token',
                type: 'url',
              })}
              {field('programDomain', 'Program domain', {
                placeholder: 'giving.example.org',
                helperText:
                  'Where images and donation pages live. Only addresses on this domain open in your browser. For the emulator on this computer: localhost and its port, such as localhost:4010.',
              })}
              {field('clientId', 'Client id', { autoComplete: 'off' })}
              {field('clientSecret', 'Client secret', {
                type: 'password',
                autoComplete: 'new-password',
                placeholder: remote.hasClientSecret ? 'A secret is stored — type to replace it' : '',
                helperText: settings.secretStorageNote,
              })}
              {remote.hasClientSecret && (
                <Box>
                  <Button variant="text" onClick={() => void forgetSecret()}>
                    Forget the stored secret
                  </Button>
                </Box>
              )}
            </Stack>
          </Paper>
        )}

        {feedback && <SettingsStatus severity={feedback.severity}>{feedback.text}</SettingsStatus>}
        <Stack direction="row" spacing={2}>
          <Button type="submit" disabled={busy}>
            Save
          </Button>
          <Button variant="outlined" onClick={() => void testConnection()} disabled={busy}>
            Test connection
          </Button>
        </Stack>
      </Stack>
      {/* Its own form after the page's: Enter in its fields saves the team database, not the environment. */}
      <TeamDatabasePanel key={settings.teamDatabase.address} />
      <ServiceCalendarPanel />
      {/* Outside the environment's form too: its Save and Test connection are about the environment only. */}
      <DataPanel />
      {info && (
        <Typography variant="body2" color="textSecondary">
          Donation Desk {info.version} ({info.mode === 'electron' ? 'desktop app' : 'browser mode'}). Your
          workspaces and settings are in <code>{info.dataDir}</code>.
        </Typography>
      )}
    </Stack>
  );
}

/** A message that sends the person to Settings, shown in Settings: it points at the fields above instead. */
function hereInSettings(message: string): string {
  return message.replace(/ in Settings\.$/, ' above.');
}
