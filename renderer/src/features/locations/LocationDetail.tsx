import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Contact, Location, Tag } from '../../../../shared/contract/locationChannels';
import { ContactsSection } from './ContactsSection';
import { LocationFieldsForm } from './LocationFieldsForm';
import { RemoveLocation } from './RemoveLocation';
import { TagsSection } from './TagsSection';
import { fieldsOf } from './locationForm';
import { useLocationActs } from './useLocationActs';

interface Props {
  location: Location;
  contacts: Contact[];
  tags: Tag[];
  onChanged(): void;
  onBack(): void;
}

/** One registered location: its fields (PATCH), its contacts and its tags. */
export function LocationDetail({ location, contacts, tags, onChanged, onBack }: Props) {
  const [current, setCurrent] = useState(location);
  const [form, setForm] = useState(() => fieldsOf(location));
  const { notice, setNotice, busy, setBusy, act } = useLocationActs(onChanged);

  // Every answer with the location in it replaces what is shown, unsaved field edits included.
  const applyLocation = (l: Location) => {
    setCurrent(l);
    setForm(fieldsOf(l));
  };

  return (
    <Stack spacing={3}>
      <Box>
        <Button onClick={onBack}>Back to all locations</Button>
      </Box>
      <Typography variant="h2" sx={{ fontSize: '1.6rem' }}>
        {current.name || current.referenceId || current.id}
      </Typography>
      {notice && (
        <Alert
          severity={notice.severity}
          role={notice.severity === 'error' ? 'alert' : 'status'}
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      )}

      <LocationFieldsForm
        location={current}
        form={form}
        onForm={setForm}
        busy={busy}
        act={act}
        onLocation={applyLocation}
      />
      <RemoveLocation
        location={current}
        busy={busy}
        onBusy={setBusy}
        onNotice={setNotice}
        onChanged={onChanged}
        onBack={onBack}
      />
      <ContactsSection
        location={current}
        contacts={contacts}
        busy={busy}
        act={act}
        onLocation={applyLocation}
      />
      <TagsSection location={current} tags={tags} busy={busy} act={act} onLocation={applyLocation} />
    </Stack>
  );
}
