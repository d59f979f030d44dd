import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ChannelResponse } from '../../../../shared/contract';
import { withCode } from '../../../../shared/i18n';
import { desk } from '../../app/deskClient';
import { cannotReceiveText } from '../../lib/cannotReceiveText';

type Cause = ChannelResponse<'causes.autocomplete'>['causes'][number];
type Check = ChannelResponse<'causes.check'> | { status: 'checking' } | null;

const CAUSE_ID = /^\d{1,4}-[A-Za-z0-9-]+(\/[A-Za-z0-9]+)?$/;

/**
 * The recipient of a donation: type a cause's name to pick it from the service's suggestions
 * (GET /autocomplete/causes), or type an id, which is looked up (GET /causes/{id}). A cause this app
 * has seen declined because it cannot take money says so, in the list and under the field.
 */
export function RecipientField(props: {
  value: string;
  onChange(value: string): void;
  /** Look-ups run only while the field is shown. */
  active: boolean;
  label?: string;
  required?: boolean;
  /** The form's own problem with the value (shape, required), shown before anything else. */
  problem?: string | null;
  onBlur?(): void;
  autoFocus?: boolean;
}) {
  const { value, active } = props;
  const [causes, setCauses] = useState<Cause[]>([]);
  const [typeAhead, setTypeAhead] = useState(true);
  const [check, setCheck] = useState<Check>(null);

  // Type-ahead: names typed are looked up after a pause.
  useEffect(() => {
    const q = value.trim();
    if (!active || !typeAhead || q.length < 2 || /^\d{1,4}-/.test(q)) return;
    let live = true;
    const timer = setTimeout(() => {
      void desk['causes.autocomplete']({ q }).then((r) => {
        if (!live || !r.ok) return;
        if (!r.value.available) setTypeAhead(false);
        setCauses(r.value.causes);
      });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [value, active, typeAhead]);

  // The id is checked with the service once it has a cause's shape.
  useEffect(() => {
    const id = value.trim();
    if (!active || !CAUSE_ID.test(id)) return;
    let live = true;
    const timer = setTimeout(() => {
      setCheck({ status: 'checking' });
      void desk['causes.check']({ recipientId: id }).then((r) => {
        if (live) setCheck(r.ok ? r.value : null);
      });
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [value, active]);

  const cannot = check && check.status !== 'checking' ? check.cannotReceive : null;
  const checkText =
    check === null ? null : check.status === 'checking' ? 'Checking the id with the service…' : check.message;
  const unknown = check?.status === 'unknown' || check?.status === 'unknown-project';
  const helper = props.problem
    ? props.problem
    : cannot
      ? `${checkText ?? ''} ${cannotReceiveText(cannot)} Pick another cause.`.trim()
      : (checkText ??
        (typeAhead
          ? 'Type a cause’s name to pick it, or its id: cause, cause/project or portfolio.'
          : 'The cause id, cause/project or portfolio id.'));

  return (
    <Autocomplete
      freeSolo
      options={causes}
      filterOptions={(x) => x}
      getOptionLabel={(o) => (typeof o === 'string' ? o : o.id)}
      renderOption={(optionProps, o) => (
        <li {...optionProps} key={o.id}>
          <Stack>
            <Typography>{o.name}</Typography>
            <Typography variant="body2" color="textSecondary">
              {[o.city, o.country].filter(Boolean).join(', ')} · {o.id}
            </Typography>
            {o.cannotReceive && (
              <Tooltip title={withCode(o.cannotReceive.reason, o.cannotReceive.code)} describeChild>
                <Typography variant="body2" data-testid="cause-cannot-receive">
                  {cannotReceiveText(o.cannotReceive)}
                </Typography>
              </Tooltip>
            )}
          </Stack>
        </li>
      )}
      inputValue={value}
      onInputChange={(_e, v) => {
        props.onChange(v);
        setCheck(null);
      }}
      onChange={(_e, v) => {
        if (v && typeof v !== 'string') props.onChange(v.id);
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label ?? 'Recipient'}
          required={props.required ?? false}
          size="small"
          autoFocus={props.autoFocus ?? false}
          onBlur={props.onBlur}
          error={!!props.problem || unknown}
          helperText={<span data-testid="recipient-helper">{helper}</span>}
          slotProps={{
            ...params.slotProps,
            formHelperText: { sx: cannot && !props.problem ? { color: 'warning.dark' } : {} },
          }}
        />
      )}
    />
  );
}
