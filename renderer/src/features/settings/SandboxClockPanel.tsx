import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SandboxClock } from '../../../../shared/contract';
import { desk } from '../../app/deskClient';
import { sandboxSpeed, span } from '../../components/sandboxSpeed';
import { dateTime } from '../../lib/dates';
import { SettingsSection, SettingsStatus } from './SettingsSection';

/** Moves a person can choose: a decision (minutes), a payment (an hour), the end of every donation. */
const MOVES = [10 * 60, 3600, 10 * 3600];

/**
 * The sandbox's clock: how fast it runs, what time it is there, and buttons that move it forward so
 * donations reach CLEARED or DECLINED without waiting. Shown while the Offline sandbox is the
 * environment in force, and on Custom when main finds the service there is the emulator on this
 * computer (`emulatorOnly`: nothing shows until its clock answered; main refuses any other service).
 */
export function SandboxClockPanel({ emulatorOnly = false }: { emulatorOnly?: boolean }) {
  const [clock, setClock] = useState<SandboxClock | null>(null);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    const read = () =>
      void desk['sandbox.clock']({}).then((result) => {
        if (!live) return;
        if (result.ok) setClock(result.value);
        else if (!emulatorOnly) setMessage({ severity: 'error', text: result.error.message });
      });
    read();
    // The sandbox's clock runs while the page is open; show it moving.
    const timer = setInterval(read, 15_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [emulatorOnly]);

  async function move(seconds: number) {
    setBusy(true);
    setMessage(null);
    const result = await desk['sandbox.advanceClock']({ seconds });
    setBusy(false);
    if (!result.ok) return setMessage({ severity: 'error', text: result.error.message });
    setClock(result.value);
    setMessage({
      severity: 'success',
      text: `The sandbox clock moved forward ${span(seconds)}: it is now ${dateTime(result.value.now)} there. Refresh from the service in Uploads or Reconcile to see where your donations stand.`,
    });
  }

  // Custom: a real service has no such clock, so nothing is shown unless the emulator answered.
  if (emulatorOnly && !clock) return null;

  return (
    <SettingsSection
      titleId="sandbox-clock-title"
      title={emulatorOnly ? 'Emulator clock (the service on this computer)' : 'Offline sandbox clock'}
      spacing={1.5}
      description={
        emulatorOnly &&
        'Custom uses the giving-service emulator running on this computer: everyone using it shares this clock.'
      }
      descriptionVariant="body2"
    >
      {clock && (
        <Typography data-testid="sandbox-speed">
          {sandboxSpeed(clock.timeScale)} Sandbox time now:{' '}
          <strong data-testid="sandbox-now">{dateTime(clock.now)}</strong>.
        </Typography>
      )}
      <Typography variant="body2" color="textSecondary">
        A donation is decided (approved for payment or declined) a few minutes after it is accepted, and paid
        and cleared within about nine hours. Move the clock forward to see it happen now.
      </Typography>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        role="group"
        aria-labelledby="sandbox-move-label"
        sx={{ flexWrap: 'wrap', alignItems: 'center' }}
      >
        <Typography id="sandbox-move-label" sx={{ fontWeight: 600, mr: 1 }}>
          Move the clock forward:
        </Typography>
        {MOVES.map((seconds) => (
          <Button
            key={seconds}
            variant="outlined"
            disabled={busy}
            aria-label={`Move forward ${span(seconds)}`}
            onClick={() => void move(seconds)}
          >
            {span(seconds)}
          </Button>
        ))}
      </Stack>
      {message && <SettingsStatus severity={message.severity}>{message.text}</SettingsStatus>}
    </SettingsSection>
  );
}
