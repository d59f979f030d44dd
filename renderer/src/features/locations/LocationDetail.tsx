import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Contact, Location, Tag } from '../../../../shared/contract/locationChannels';
import type { Result } from '../../../../shared/result';
import { isCountryCode } from '../../../../shared/donation';
import { desk } from '../../app/deskClient';

interface Props {
  location: Location;
  contacts: Contact[];
  tags: Tag[];
  onChanged(): void;
  onBack(): void;
}

type Notice = { severity: 'success' | 'error'; text: string } | null;

const FIELDS = [
  ['name', 'Name'],
  ['referenceId', 'Reference id'],
  ['phoneNumber', 'Phone number'],
  ['addressLine', 'Street address'],
  ['locality', 'City'],
  ['district', 'District or state'],
  ['postalCode', 'Postal code'],
  ['country', 'Country code'],
  ['latitude', 'Latitude'],
  ['longitude', 'Longitude'],
] as const;
type FieldName = (typeof FIELDS)[number][0];

function fieldsOf(l: Location): Record<FieldName, string> {
  const a = l.address ?? {};
  return {
    name: l.name ?? '',
    referenceId: l.referenceId ?? '',
    phoneNumber: l.phoneNumber ?? '',
    addressLine: a.addressLine ?? '',
    locality: a.locality ?? '',
    district: a.district ?? '',
    postalCode: a.postalCode ?? '',
    country: a.country ?? '',
    latitude: a.geoCoordinate ? String(a.geoCoordinate.latitude) : '',
    longitude: a.geoCoordinate ? String(a.geoCoordinate.longitude) : '',
  };
}

/** One registered location: its fields (PATCH), its contacts and its tags. */
export function LocationDetail({ location, contacts, tags, onChanged, onBack }: Props) {
  const [current, setCurrent] = useState(location);
  const [form, setForm] = useState(() => fieldsOf(location));
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<'remove' | 'forget' | null>(null);

  async function act<T>(
    call: Promise<Result<T>>,
    success: string,
    apply?: (value: T) => void,
  ): Promise<boolean> {
    setBusy(true);
    setNotice(null);
    const result = await call;
    setBusy(false);
    if (!result.ok) {
      setNotice({ severity: 'error', text: result.error.message });
      return false;
    }
    apply?.(result.value);
    setNotice({ severity: 'success', text: success });
    onChanged();
    return true;
  }
  const applyLocation = (l: Location) => {
    setCurrent(l);
    setForm(fieldsOf(l));
  };

  const before = fieldsOf(current);
  const changed = FIELDS.filter(([k]) => form[k] !== before[k]).map(([k]) => k);
  const lat = form.latitude.trim() ? Number(form.latitude) : null;
  const long = form.longitude.trim() ? Number(form.longitude) : null;
  const problems: Partial<Record<FieldName, string>> = {};
  if (!form.name.trim()) problems.name = 'A location needs a name.';
  if (!form.referenceId.trim()) problems.referenceId = 'A location needs a reference id.';
  if (form.country.trim() && !isCountryCode(form.country.trim().toUpperCase()))
    problems.country = 'Use a two-letter code such as US or DE.';
  if (lat !== null && !(lat >= -90 && lat <= 90)) problems.latitude = 'A number from -90 to 90.';
  if (long !== null && !(long >= -180 && long <= 180)) problems.longitude = 'A number from -180 to 180.';
  if ((lat === null) !== (long === null))
    problems[lat === null ? 'latitude' : 'longitude'] = 'Give both or neither.';

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!changed.length || Object.keys(problems).length) return;
    const has = (k: FieldName) => changed.includes(k);
    const address: Record<string, unknown> = {};
    for (const k of ['addressLine', 'locality', 'district', 'postalCode'] as const)
      if (has(k)) address[k] = form[k].trim();
    if (has('country')) address.country = form.country.trim().toUpperCase();
    if ((has('latitude') || has('longitude')) && lat !== null && long !== null)
      address.geoCoordinate = { latitude: lat, longitude: long };
    await act(
      desk['locations.update']({
        id: current.id,
        changes: {
          ...(has('name') ? { name: form.name.trim() } : {}),
          ...(has('referenceId') ? { referenceId: form.referenceId.trim() } : {}),
          ...(has('phoneNumber') ? { phoneNumber: form.phoneNumber.trim() } : {}),
          ...(Object.keys(address).length ? { address } : {}),
        },
      }),
      'The location was saved.',
      applyLocation,
    );
  }

  async function removeOrForget(what: 'remove' | 'forget') {
    setBusy(true);
    setNotice(null);
    if (what === 'forget') {
      const result = await desk['locations.forget']({ id: current.id });
      setBusy(false);
      if (!result.ok) return setNotice({ severity: 'error', text: result.error.message });
      onChanged();
      return onBack();
    }
    const result = await desk['locations.batch']({
      items: [{ action: 'remove', referenceId: current.referenceId ?? '' }],
      applyValid: false,
    });
    setBusy(false);
    setConfirming(null);
    const outcome = result.ok ? result.value.outcomes[0] : undefined;
    if (!result.ok || outcome?.status !== 'applied') {
      const reason = !result.ok
        ? result.error.message
        : outcome?.status === 'failed'
          ? outcome.errors.map((e) => e.message).join(' ')
          : 'The service did not remove it.';
      return setNotice({ severity: 'error', text: reason });
    }
    onChanged();
    onBack();
  }

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
              onChange={(e) => setForm({ ...form, [k]: e.target.value })}
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
          <Button disabled={!changed.length} onClick={() => setForm(fieldsOf(current))}>
            Undo changes
          </Button>
        </Stack>
      </Box>

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
            <Button color="error" disabled={!current.referenceId} onClick={() => setConfirming('remove')}>
              Remove this location…
            </Button>
            <Button onClick={() => setConfirming('forget')}>Forget it in this app…</Button>
          </Stack>
        )}
      </Box>

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

type Act = <T>(call: Promise<Result<T>>, success: string, apply?: (value: T) => void) => Promise<boolean>;

interface SectionProps {
  location: Location;
  busy: boolean;
  act: Act;
  onLocation(l: Location): void;
}

function ContactsSection({
  location,
  contacts,
  busy,
  act,
  onLocation,
}: SectionProps & { contacts: Contact[] }) {
  const assigned = location.contacts ?? [];
  const [pick, setPick] = useState('');
  const [asPrimary, setAsPrimary] = useState(false);
  const [draft, setDraft] = useState({ firstName: '', lastName: '', emailAddress: '' });
  const [editing, setEditing] = useState<{
    contactId: string;
    firstName: string;
    lastName: string;
    emailAddress: string;
  } | null>(null);
  const available = contacts.filter((c) => !assigned.some((a) => a.contactId === c.id));
  const fullName = (c: { firstName?: string | null; lastName?: string | null }) =>
    `${c.firstName ?? ''} ${c.lastName ?? ''}`.trim();

  async function createAndAssign(event: FormEvent) {
    event.preventDefault();
    let created: Contact | null = null;
    const ok = await act(desk['contacts.create'](draft), 'The contact was created.', (c) => (created = c));
    const contact = created as Contact | null;
    if (!ok || !contact) return;
    setDraft({ firstName: '', lastName: '', emailAddress: '' });
    await act(
      desk['contacts.assign']({ locationId: location.id, contactId: contact.id, isPrimary: asPrimary }),
      `${fullName(contact)} was created and assigned.`,
      onLocation,
    );
  }

  return (
    <Box component="section" aria-labelledby="contacts-heading">
      <Typography variant="h3" id="contacts-heading" sx={{ fontSize: '1.2rem', mb: 1 }}>
        Contacts
      </Typography>
      {assigned.length === 0 ? (
        <Typography color="text.secondary">No contacts are assigned to this location.</Typography>
      ) : (
        <Paper variant="outlined">
          <Table size="small" aria-label="Contacts of this location">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Primary</TableCell>
                <TableCell>Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {assigned.map((c) => (
                <TableRow key={c.id} data-testid="contact-row">
                  {editing?.contactId === c.contactId ? (
                    <TableCell colSpan={4}>
                      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1}>
                        <TextField
                          size="small"
                          label="First name"
                          value={editing.firstName}
                          onChange={(e) => setEditing({ ...editing, firstName: e.target.value })}
                        />
                        <TextField
                          size="small"
                          label="Last name"
                          value={editing.lastName}
                          onChange={(e) => setEditing({ ...editing, lastName: e.target.value })}
                        />
                        <TextField
                          size="small"
                          label="Email"
                          value={editing.emailAddress}
                          onChange={(e) => setEditing({ ...editing, emailAddress: e.target.value })}
                        />
                        <Button
                          variant="contained"
                          disabled={busy}
                          onClick={() =>
                            void act(
                              desk['contacts.update']({
                                contactId: editing.contactId,
                                changes: {
                                  firstName: editing.firstName,
                                  lastName: editing.lastName,
                                  emailAddress: editing.emailAddress,
                                },
                              }),
                              'The contact was saved.',
                              (saved) => {
                                setEditing(null);
                                onLocation({
                                  ...location,
                                  contacts: assigned.map((x) =>
                                    x.contactId === saved.id
                                      ? {
                                          ...x,
                                          firstName: saved.firstName,
                                          lastName: saved.lastName,
                                          emailAddress: saved.emailAddress,
                                        }
                                      : x,
                                  ),
                                });
                              },
                            )
                          }
                        >
                          Save contact
                        </Button>
                        <Button onClick={() => setEditing(null)}>Cancel</Button>
                      </Stack>
                    </TableCell>
                  ) : (
                    <>
                      <TableCell>{fullName(c)}</TableCell>
                      <TableCell>{c.emailAddress}</TableCell>
                      <TableCell>
                        {c.isPrimary ? <Chip size="small" label="Primary" variant="outlined" /> : 'No'}
                      </TableCell>
                      <TableCell>
                        <Stack direction="row" spacing={1}>
                          {!c.isPrimary && (
                            <Button
                              size="small"
                              disabled={busy}
                              aria-label={`Make primary: ${fullName(c)}`}
                              onClick={() =>
                                void act(
                                  desk['contacts.setPrimary']({
                                    locationId: location.id,
                                    locationContactId: c.id,
                                    isPrimary: true,
                                  }),
                                  `${fullName(c)} is now the primary contact.`,
                                  onLocation,
                                )
                              }
                            >
                              Make primary
                            </Button>
                          )}
                          <Button
                            size="small"
                            aria-label={`Edit: ${fullName(c)}`}
                            onClick={() =>
                              setEditing({
                                contactId: c.contactId,
                                firstName: c.firstName ?? '',
                                lastName: c.lastName ?? '',
                                emailAddress: c.emailAddress ?? '',
                              })
                            }
                          >
                            Edit
                          </Button>
                          <Button
                            size="small"
                            color="error"
                            disabled={busy}
                            aria-label={`Unassign: ${fullName(c)}`}
                            onClick={() =>
                              void act(
                                desk['contacts.unassign']({
                                  locationId: location.id,
                                  locationContactId: c.id,
                                }),
                                `${fullName(c)} was unassigned.`,
                                onLocation,
                              )
                            }
                          >
                            Unassign
                          </Button>
                        </Stack>
                      </TableCell>
                    </>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mt: 2, alignItems: { md: 'center' } }}>
        <TextField
          select
          size="small"
          label="Known contact"
          value={pick}
          onChange={(e) => setPick(e.target.value)}
          sx={{ minWidth: 260 }}
        >
          {available.length === 0 && (
            <MenuItem value="" disabled>
              No other known contacts
            </MenuItem>
          )}
          {available.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {fullName(c)} ({c.emailAddress})
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Checkbox checked={asPrimary} onChange={(e) => setAsPrimary(e.target.checked)} />}
          label="As primary contact"
        />
        <Button
          variant="outlined"
          disabled={busy || !pick}
          onClick={() =>
            void act(
              desk['contacts.assign']({ locationId: location.id, contactId: pick, isPrimary: asPrimary }),
              'The contact was assigned.',
              (l) => {
                setPick('');
                onLocation(l);
              },
            )
          }
        >
          Assign contact
        </Button>
      </Stack>
      <Box component="form" onSubmit={(e) => void createAndAssign(e)} aria-label="New contact" sx={{ mt: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1}>
          <TextField
            size="small"
            label="New contact first name"
            value={draft.firstName}
            onChange={(e) => setDraft({ ...draft, firstName: e.target.value })}
          />
          <TextField
            size="small"
            label="New contact last name"
            value={draft.lastName}
            onChange={(e) => setDraft({ ...draft, lastName: e.target.value })}
          />
          <TextField
            size="small"
            label="New contact email"
            value={draft.emailAddress}
            onChange={(e) => setDraft({ ...draft, emailAddress: e.target.value })}
          />
          <Button
            type="submit"
            variant="outlined"
            disabled={busy || !draft.firstName.trim() || !draft.lastName.trim() || !draft.emailAddress.trim()}
          >
            Create and assign
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}

function TagsSection({ location, tags, busy, act, onLocation }: SectionProps & { tags: Tag[] }) {
  const assigned = location.tags ?? [];
  const [pick, setPick] = useState('');
  const [draft, setDraft] = useState({ name: '', value: '' });
  const [editing, setEditing] = useState<{ tagId: string; name: string; value: string } | null>(null);
  const available = tags.filter((t) => !assigned.some((a) => a._id === t.id));

  async function createAndAssign(event: FormEvent) {
    event.preventDefault();
    let created: Tag | null = null;
    const ok = await act(desk['tags.create'](draft), 'The tag was created.', (t) => (created = t));
    const tag = created as Tag | null;
    if (!ok || !tag) return;
    setDraft({ name: '', value: '' });
    await act(
      desk['tags.assign']({ locationId: location.id, tagId: tag.id }),
      `Tag ${tag.name}=${tag.value} was added.`,
      onLocation,
    );
  }

  return (
    <Box component="section" aria-labelledby="tags-heading">
      <Typography variant="h3" id="tags-heading" sx={{ fontSize: '1.2rem', mb: 1 }}>
        Tags
      </Typography>
      {assigned.length === 0 ? (
        <Typography color="text.secondary">No tags are assigned to this location.</Typography>
      ) : (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {assigned.map((t) => (
            <Stack
              component="li"
              key={t._id}
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center' }}
              data-testid="tag-row"
            >
              {editing?.tagId === t._id ? (
                <>
                  <TextField
                    size="small"
                    label="Tag name"
                    value={editing.name}
                    onChange={(e) => setEditing({ ...editing, name: e.target.value })}
                  />
                  <TextField
                    size="small"
                    label="Tag value"
                    value={editing.value}
                    onChange={(e) => setEditing({ ...editing, value: e.target.value })}
                  />
                  <Button
                    variant="contained"
                    size="small"
                    disabled={busy || !editing.name.trim() || !editing.value.trim()}
                    onClick={() =>
                      void act(
                        desk['tags.update']({
                          tagId: editing.tagId,
                          name: editing.name,
                          value: editing.value,
                        }),
                        'The tag was saved (every location with it shows the change).',
                        (saved) => {
                          setEditing(null);
                          onLocation({
                            ...location,
                            tags: assigned.map((x) =>
                              x._id === saved.id ? { ...x, name: saved.name, value: saved.value } : x,
                            ),
                          });
                        },
                      )
                    }
                  >
                    Save tag
                  </Button>
                  <Button size="small" onClick={() => setEditing(null)}>
                    Cancel
                  </Button>
                </>
              ) : (
                <>
                  <Chip label={`${t.name} = ${t.value}`} variant="outlined" />
                  <Button
                    size="small"
                    aria-label={`Edit tag: ${t.name} = ${t.value}`}
                    onClick={() => setEditing({ tagId: t._id, name: t.name, value: t.value })}
                  >
                    Edit
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    disabled={busy}
                    aria-label={`Remove tag: ${t.name} = ${t.value}`}
                    onClick={() =>
                      void act(
                        desk['tags.remove']({ locationId: location.id, tagId: t._id }),
                        `Tag ${t.name}=${t.value} was removed.`,
                        onLocation,
                      )
                    }
                  >
                    Remove
                  </Button>
                </>
              )}
            </Stack>
          ))}
        </Stack>
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mt: 2, alignItems: { md: 'center' } }}>
        <TextField
          select
          size="small"
          label="Known tag"
          value={pick}
          onChange={(e) => setPick(e.target.value)}
          sx={{ minWidth: 220 }}
        >
          {available.length === 0 && (
            <MenuItem value="" disabled>
              No other known tags
            </MenuItem>
          )}
          {available.map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {t.name} = {t.value}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="outlined"
          disabled={busy || !pick}
          onClick={() =>
            void act(
              desk['tags.assign']({ locationId: location.id, tagId: pick }),
              'The tag was added.',
              (l) => {
                setPick('');
                onLocation(l);
              },
            )
          }
        >
          Add tag
        </Button>
      </Stack>
      <Box component="form" onSubmit={(e) => void createAndAssign(e)} aria-label="New tag" sx={{ mt: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1}>
          <TextField
            size="small"
            label="New tag name"
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
          <TextField
            size="small"
            label="New tag value"
            value={draft.value}
            onChange={(e) => setDraft({ ...draft, value: e.target.value })}
          />
          <Button
            type="submit"
            variant="outlined"
            disabled={busy || !draft.name.trim() || !draft.value.trim()}
          >
            Create and add
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}
