import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { desk } from '../../app/deskClient';
import { useDesk } from '../../app/DeskContext';
import type { AreaId } from '../../app/routes';
import { OPEN_SAMPLE_KEY } from '../../app/routes';

const steps = [
  [
    'Prepare',
    'Open your month-end spreadsheet, match its columns, and fix every row the service would refuse.',
  ],
  ['Upload', 'Send the donations in one bulk file and follow the job until it is processed.'],
  [
    'Repair',
    'If the service rejects rows, see each error on its cell, fix it and send only what is missing.',
  ],
  ['Reconcile', 'Follow every donation to cleared, and put declined ones right before month-end.'],
] as const;

export function WelcomePage({ go }: { go: (area: AreaId | 'welcome') => void }) {
  const { refresh } = useDesk();

  async function start(next: AreaId, environment?: 'offline') {
    await desk['settings.save']({ firstRunDone: true, ...(environment ? { environment } : {}) });
    await refresh();
    // Prepare loads on demand, so the request to open the sample waits for it in session storage.
    if (next === 'prepare') sessionStorage.setItem(OPEN_SAMPLE_KEY, '1');
    go(next);
  }

  return (
    <Stack spacing={3} sx={{ maxWidth: 760 }}>
      <Typography variant="h1">Welcome to Donation Desk</Typography>
      <Typography>
        Donation Desk turns your company’s donation spreadsheet into donations the giving service accepts, and
        follows each one until the money has reached the cause.
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack component="ol" spacing={1} sx={{ m: 0, pl: 3 }}>
          {steps.map(([title, text]) => (
            <li key={title}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {title}.
              </Typography>{' '}
              {text}
            </li>
          ))}
        </Stack>
      </Paper>
      <Typography>
        New here? Try the whole flow on the <strong>Offline sandbox</strong>, a practice copy of the service
        on this computer, with a sample spreadsheet. Nothing leaves your machine.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button size="large" onClick={() => void start('prepare', 'offline')}>
          Try it with the sample spreadsheet
        </Button>
        <Button size="large" variant="outlined" onClick={() => void start('settings')}>
          Set up my connection
        </Button>
      </Stack>
    </Stack>
  );
}
