import { useEffect, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { desk } from '../../app/deskClient';
import {
  expectedMaintenance,
  MAINTENANCE_GUESS_WORDS,
  maintenanceWhenWords,
} from '../../../../shared/service-calendar';
import { SettingsSection, SettingsStatus } from './SettingsSection';

type Feedback = { severity: 'success' | 'error'; text: string } | null;

/**
 * Settings → Scheduled maintenance: the dates the giving service announced for its maintenance
 * (Saturday 18:00–24:00 Mountain Time, about every five weeks), and the next window in the person's
 * own time and in Mountain Time. Without announced dates the next window is a guess, and says so.
 * Its own form: Enter here saves the dates, nothing else.
 */
export function ServiceCalendarPanel() {
  const [text, setText] = useState('');
  const [saved, setSaved] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  useEffect(() => {
    let live = true;
    void desk['calendar.get']({}).then((r) => {
      if (!live || !r.ok) return;
      setSaved(r.value.announcedDates);
      setText(r.value.announcedDates.join('\n'));
    });
    return () => {
      live = false;
    };
  }, []);

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const r = await desk['calendar.save']({ dates: text.split(/\n/) });
    setBusy(false);
    if (!r.ok) return setFeedback({ severity: 'error', text: `Not saved. ${r.error.message}` });
    setSaved(r.value.announcedDates);
    setText(r.value.announcedDates.join('\n'));
    setFeedback({
      severity: 'success',
      text: r.value.announcedDates.length
        ? `Saved ${r.value.announcedDates.length === 1 ? 'one date' : `${r.value.announcedDates.length} dates`}.`
        : 'Saved: no announced dates.',
    });
  }

  if (saved === null) return null;
  const now = new Date();
  const next = expectedMaintenance(now, saved);
  return (
    <SettingsSection
      titleId="service-calendar-title"
      title="Scheduled maintenance"
      onSubmit={(e) => void save(e)}
      description="The giving service (and its sandbox) goes offline for maintenance on a Saturday from 18:00 to 24:00 Mountain Time, about every five weeks, on dates it announces. Enter those dates so the desk can warn you before an upload and wait calmly during the maintenance."
      descriptionVariant="body2"
    >
      <TextField
        label="Announced maintenance dates"
        multiline
        minRows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="2026-12-05"
        helperText="One Saturday per line, written YYYY-MM-DD (for example 2026-12-05)."
        slotProps={{ htmlInput: { 'aria-describedby': 'next-maintenance' } }}
      />
      <Typography id="next-maintenance" data-testid="next-maintenance">
        {next ? (
          <>
            Next maintenance: <strong>{maintenanceWhenWords(next, now)}</strong>
            {next.estimated ? `: ${MAINTENANCE_GUESS_WORDS}` : ''}
            {next.estimated && saved.length === 0
              ? ' No date is entered yet: the guess counts five weeks at a time from the service’s last published release date.'
              : ''}
          </>
        ) : (
          'No maintenance is expected.'
        )}
      </Typography>
      {feedback && <SettingsStatus severity={feedback.severity}>{feedback.text}</SettingsStatus>}
      <Box>
        <Button type="submit" variant="outlined" disabled={busy}>
          Use these dates
        </Button>
      </Box>
    </SettingsSection>
  );
}
