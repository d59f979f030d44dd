import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Location } from '../../../../shared/contract/locationChannels';
import { desk } from '../../app/deskClient';
import { removalProblem } from './removal';
import type { Notice } from './useLocationActs';

interface Props {
  location: Location;
  busy: boolean;
  onBusy(busy: boolean): void;
  onNotice(notice: Notice): void;
  onChanged(): void;
  onBack(): void;
}

/** Remove the location at the service, or only forget it in this app; either asks first. */
export function RemoveLocation({ location, busy, onBusy, onNotice, onChanged, onBack }: Props) {
  const [confirming, setConfirming] = useState<'remove' | 'forget' | null>(null);

  async function removeOrForget(what: 'remove' | 'forget') {
    onBusy(true);
    onNotice(null);
    if (what === 'forget') {
      const result = await desk['locations.forget']({ id: location.id });
      onBusy(false);
      if (!result.ok) return onNotice({ severity: 'error', text: result.error.message });
      onChanged();
      return onBack();
    }
    const result = await desk['locations.batch']({
      items: [{ action: 'remove', referenceId: location.referenceId ?? '' }],
      applyValid: false,
    });
    onBusy(false);
    setConfirming(null);
    const problem = removalProblem(result);
    if (problem !== null) return onNotice({ severity: 'error', text: problem });
    onChanged();
    onBack();
  }

  return (
    <Box component="section" aria-labelledby="remove-heading">
      <Typography variant="h3" id="remove-heading" sx={{ fontSize: '1.2rem', mb: 1 }}>
        Remove
      </Typography>
      {confirming ? (
        <Alert
          severity="warning"
          action={
            <Stack direction="row" spacing={1}>
              <Button
                color="error"
                variant="contained"
                size="small"
                disabled={busy}
                onClick={() => void removeOrForget(confirming)}
              >
                {confirming === 'remove' ? 'Remove at the service' : 'Forget it here'}
              </Button>
              <Button size="small" onClick={() => setConfirming(null)}>
                Keep it
              </Button>
            </Stack>
          }
        >
          {confirming === 'remove'
            ? 'The service deletes this location with its contact and tag assignments. This cannot be undone.'
            : 'The app stops listing this location; the service keeps it.'}
        </Alert>
      ) : (
        <Stack direction="row" spacing={1}>
          <Button color="error" disabled={!location.referenceId} onClick={() => setConfirming('remove')}>
            Remove this location…
          </Button>
          <Button onClick={() => setConfirming('forget')}>Forget it in this app…</Button>
        </Stack>
      )}
    </Box>
  );
}
