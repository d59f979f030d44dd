import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { Fields } from './drafts';

interface Props<K extends string> {
  fields: Fields<K>;
  values: Record<K, string>;
  onChange(values: Record<K, string>): void;
  saveText: string;
  /** The buttons' size; the fields are always small. */
  size?: 'small';
  canSave: boolean;
  onSave(): void;
  onCancel(): void;
}

/** An assigned item edited in place: its fields, then Save and Cancel (laid out by the caller). */
export function ItemEditor<K extends string>({
  fields,
  values,
  onChange,
  saveText,
  size,
  canSave,
  onSave,
  onCancel,
}: Props<K>) {
  return (
    <>
      {fields.map(([k, label]) => (
        <TextField
          key={k}
          size="small"
          label={label}
          value={values[k]}
          onChange={(e) => onChange({ ...values, [k]: e.target.value })}
        />
      ))}
      <Button variant="contained" size={size} disabled={!canSave} onClick={onSave}>
        {saveText}
      </Button>
      <Button size={size} onClick={onCancel}>
        Cancel
      </Button>
    </>
  );
}
