import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { Contact, Location } from '../../../../shared/contract/locationChannels';
import { desk } from '../../app/deskClient';
import { AssignmentSection } from './assignments/AssignmentSection';
import { ItemEditor } from './assignments/ItemEditor';
import { fullName, unassignedContacts, withSavedContact } from './assignments/assigned';
import type { Act } from './useLocationActs';

interface Props {
  location: Location;
  contacts: Contact[];
  busy: boolean;
  act: Act;
  onLocation(l: Location): void;
}

type ContactField = 'firstName' | 'lastName' | 'emailAddress';

const EDIT_FIELDS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['emailAddress', 'Email'],
] as const;

const NEW_FIELDS = [
  ['firstName', 'New contact first name'],
  ['lastName', 'New contact last name'],
  ['emailAddress', 'New contact email'],
] as const;

/** The location's contacts: make one primary, edit, unassign; assign a known one or a new one. */
export function ContactsSection({ location, contacts, busy, act, onLocation }: Props) {
  const assigned = location.contacts ?? [];
  const [asPrimary, setAsPrimary] = useState(false);
  const [editing, setEditing] = useState<{ contactId: string; values: Record<ContactField, string> } | null>(
    null,
  );

  async function createAndAssign(draft: Record<ContactField, string>, clear: () => void) {
    let created: Contact | null = null;
    const ok = await act(desk['contacts.create'](draft), 'The contact was created.', (c) => (created = c));
    const contact = created as Contact | null;
    if (!ok || !contact) return;
    clear();
    await act(
      desk['contacts.assign']({ locationId: location.id, contactId: contact.id, isPrimary: asPrimary }),
      `${fullName(contact)} was created and assigned.`,
      onLocation,
    );
  }

  function saveEdit(contactId: string, values: Record<ContactField, string>) {
    void act(desk['contacts.update']({ contactId, changes: values }), 'The contact was saved.', (saved) => {
      setEditing(null);
      onLocation(withSavedContact(location, saved));
    });
  }

  const table = (
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
                    <ItemEditor
                      fields={EDIT_FIELDS}
                      values={editing.values}
                      onChange={(values) => setEditing({ ...editing, values })}
                      saveText="Save contact"
                      canSave={!busy}
                      onSave={() => saveEdit(editing.contactId, editing.values)}
                      onCancel={() => setEditing(null)}
                    />
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
                            values: {
                              firstName: c.firstName ?? '',
                              lastName: c.lastName ?? '',
                              emailAddress: c.emailAddress ?? '',
                            },
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
                            desk['contacts.unassign']({ locationId: location.id, locationContactId: c.id }),
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
  );

  return (
    <AssignmentSection
      id="contacts"
      title="Contacts"
      emptyText="No contacts are assigned to this location."
      assigned={assigned.length === 0 ? null : table}
      busy={busy}
      picker={{
        label: 'Known contact',
        minWidth: 260,
        noneText: 'No other known contacts',
        options: unassignedContacts(location, contacts).map((c) => ({
          value: c.id,
          label: `${fullName(c)} (${c.emailAddress})`,
        })),
        extra: (
          <FormControlLabel
            control={<Checkbox checked={asPrimary} onChange={(e) => setAsPrimary(e.target.checked)} />}
            label="As primary contact"
          />
        ),
        buttonText: 'Assign contact',
        assign: (contactId, clear) =>
          void act(
            desk['contacts.assign']({ locationId: location.id, contactId, isPrimary: asPrimary }),
            'The contact was assigned.',
            (l) => {
              clear();
              onLocation(l);
            },
          ),
      }}
      creator={{
        label: 'New contact',
        fields: NEW_FIELDS,
        buttonText: 'Create and assign',
        create: createAndAssign,
      }}
    />
  );
}
