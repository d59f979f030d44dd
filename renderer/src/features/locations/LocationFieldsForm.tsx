import type { FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Location } from '../../../../shared/contract/locationChannels';
import { desk } from '../../app/deskClient';
import {
  FIELDS,
  changedFields,
  fieldProblems,
  fieldsOf,
  locationChanges,
  type LocationForm,
} from './locationForm';
import type { Act } from './useLocationActs';

interface Props {
  location: Location;
  form: LocationForm;
  onForm(form: LocationForm): void;
  busy: boolean;
  act: Act;
  onLocation(l: Location): void;
}

/** The location's own fields, saved with a PATCH of those changed. */
export function LocationFieldsForm({ location, form, onForm, busy, act, onLocation }: Props) {
  const changed = changedFields(form, location);
  const problems = fieldProblems(form);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!changed.length || Object.keys(problems).length) return;
    await act(
      desk['locations.update']({ id: location.id, changes: locationChanges(form, changed) }),
      'The location was saved.',
      onLocation,
    );
  }

  return (
    <Box component="form" onSubmit={(e) => void save(e)} aria-labelledby="location-fields">
      <Typography variant="h3" id="location-fields" sx={{ fontSize: '1.2rem', mb: 1 }}>
        Details
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 2 }}>
        {FIELDS.map(([k, label]) => (
          <TextField
            key={k}
            label={label}
            size="small"
            value={form[k]}
            error={Boolean(problems[k])}
            helperText={problems[k] ?? ' '}
            onChange={(e) => onForm({ ...form, [k]: e.target.value })}
          />
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button
          type="submit"
          variant="contained"
          disabled={busy || !changed.length || Object.keys(problems).length > 0}
        >
          Save changes
        </Button>
        <Button disabled={!changed.length} onClick={() => onForm(fieldsOf(location))}>
          Undo changes
        </Button>
      </Stack>
    </Box>
  );
}
