import { useState, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { blankDraft, isComplete, type Fields } from './drafts';

export interface KnownPicker {
  /** The select's label, e.g. "Known contact". */
  label: string;
  minWidth: number;
  /** Shown (disabled) when every known one is assigned already. */
  noneText: string;
  options: readonly { value: string; label: string }[];
  /** A control between the select and the button (e.g. "As primary contact"). */
  extra?: ReactNode;
  buttonText: string;
  /** Assign the picked one; `clear` empties the select once it is assigned. */
  assign(id: string, clear: () => void): void;
}

export interface NewItemForm<K extends string> {
  /** The form's accessible name, e.g. "New contact". */
  label: string;
  fields: Fields<K>;
  buttonText: string;
  /** Create it and assign it; `clear` empties the form once it is created. */
  create(draft: Record<K, string>, clear: () => void): Promise<void>;
}

interface Props<K extends string> {
  /** The section's heading is `${id}-heading`. */
  id: string;
  title: string;
  emptyText: string;
  /** What is assigned now; null when nothing is. */
  assigned: ReactNode | null;
  busy: boolean;
  picker: KnownPicker;
  creator: NewItemForm<K>;
}

/**
 * What a location has of a kind (contacts, tags): the ones assigned, a known one to assign, and a
 * new one to create and assign in one go.
 */
export function AssignmentSection<K extends string>({
  id,
  title,
  emptyText,
  assigned,
  busy,
  picker,
  creator,
}: Props<K>) {
  return (
    <Box component="section" aria-labelledby={`${id}-heading`}>
      <Typography variant="h3" id={`${id}-heading`} sx={{ fontSize: '1.2rem', mb: 1 }}>
        {title}
      </Typography>
      {assigned ?? <Typography color="textSecondary">{emptyText}</Typography>}
      <PickKnown {...picker} busy={busy} />
      <CreateNew {...creator} busy={busy} />
    </Box>
  );
}

function PickKnown({
  label,
  minWidth,
  noneText,
  options,
  extra,
  buttonText,
  assign,
  busy,
}: KnownPicker & { busy: boolean }) {
  const [pick, setPick] = useState('');
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mt: 2, alignItems: { md: 'center' } }}>
      <TextField
        select
        size="small"
        label={label}
        value={pick}
        onChange={(e) => setPick(e.target.value)}
        sx={{ minWidth }}
      >
        {options.length === 0 && (
          <MenuItem value="" disabled>
            {noneText}
          </MenuItem>
        )}
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
      {extra}
      <Button variant="outlined" disabled={busy || !pick} onClick={() => assign(pick, () => setPick(''))}>
        {buttonText}
      </Button>
    </Stack>
  );
}

function CreateNew<K extends string>({
  label,
  fields,
  buttonText,
  create,
  busy,
}: NewItemForm<K> & { busy: boolean }) {
  const [draft, setDraft] = useState(() => blankDraft(fields));

  async function submit(event: FormEvent) {
    event.preventDefault();
    await create(draft, () => setDraft(blankDraft(fields)));
  }

  return (
    <Box component="form" onSubmit={(e) => void submit(e)} aria-label={label} sx={{ mt: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1}>
        {fields.map(([k, fieldLabel]) => (
          <TextField
            key={k}
            size="small"
            label={fieldLabel}
            value={draft[k]}
            onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
          />
        ))}
        <Button type="submit" variant="outlined" disabled={busy || !isComplete(draft)}>
          {buttonText}
        </Button>
      </Stack>
    </Box>
  );
}
