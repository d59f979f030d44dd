import { useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  FIELD_TARGETS,
  TARGET_LABELS,
  parseMappingTemplate,
  toMetadataKey,
  type MappingTemplate,
  type MappingTarget,
  type MappingSuggestion,
} from '../../../../shared/mapping';
import { detectNumberStyle, isCurrencyCode } from '../../../../shared/amounts';
import type { WorkspaceMapping } from '../../../../shared/workspace';

interface Props {
  headers: string[];
  samples: string[][];
  suggestion: MappingSuggestion | null;
  initial: WorkspaceMapping;
  /** Set when a saved template with the same headers was applied automatically. */
  appliedTemplateName?: string;
  onConfirm(mapping: WorkspaceMapping, saveAsTemplate: string | null): void;
  onCancel(): void;
  confirmLabel?: string;
}

const NOT_USED = '';
const METADATA = '__metadata__';

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Confirm which column holds what: suggestions are shown with their confidence, every choice can be changed. */
const styleExample = { 'dot-decimal': '1,234.56', 'comma-decimal': '1.234,56' } as const;

export function MappingStep({
  headers,
  samples,
  suggestion,
  initial,
  appliedTemplateName,
  onConfirm,
  onCancel,
  confirmLabel,
}: Props) {
  const [template, setTemplate] = useState<MappingTemplate>(initial.template);
  const [numberStyle, setNumberStyle] = useState(initial.numberStyle);
  const [reference, setReference] = useState(initial.reference);
  const [templateName, setTemplateName] = useState('');
  const [message, setMessage] = useState<{ severity: 'error' | 'success'; text: string } | null>(null);
  const importInput = useRef<HTMLInputElement>(null);

  const targetOf = (header: string): MappingTarget | undefined => template.columns[header];
  // What "Detect from the file" finds in the amount column's first rows, said beside it.
  const amountIndex = headers.findIndex((h) => template.columns[h] === 'amount');
  const detectedStyle = useMemo(
    () => (amountIndex < 0 ? null : detectNumberStyle(samples.map((row) => row[amountIndex]))),
    [amountIndex, samples],
  );
  const usedTargets = useMemo(() => new Set(Object.values(template.columns)), [template]);

  function setTarget(header: string, choice: string) {
    const columns = { ...template.columns };
    if (choice === NOT_USED) delete columns[header];
    else if (choice === METADATA)
      columns[header] = `metadata.${toMetadataKey(header) || 'field'}` as MappingTarget;
    else {
      // One column per target: choosing it here frees it elsewhere.
      for (const [h, t] of Object.entries(columns)) if (t === choice) delete columns[h];
      columns[header] = choice as MappingTarget;
    }
    setTemplate({ ...template, columns });
  }

  /** Every column not used for anything else is kept with the donation as metadata. */
  function unusedAsMetadata() {
    const columns = { ...template.columns };
    const taken = new Set(
      Object.values(columns).flatMap((t) => (t.startsWith('metadata.') ? [t.slice(9)] : [])),
    );
    for (const header of headers) {
      if (columns[header] || !header.trim()) continue;
      let key = toMetadataKey(header) || 'field';
      for (let n = 2; taken.has(key); n++) key = `${toMetadataKey(header).slice(0, 60)} ${n}`;
      taken.add(key);
      columns[header] = `metadata.${key}` as MappingTarget;
    }
    setTemplate({ ...template, columns });
  }

  function setMetadataKey(header: string, key: string) {
    setTemplate({
      ...template,
      columns: { ...template.columns, [header]: `metadata.${key}` as MappingTarget },
    });
  }

  const mapped = Object.values(template.columns);
  const problems: string[] = [];
  if (!mapped.includes('recipientId'))
    problems.push('Choose the column that holds the recipient (cause, project or portfolio) id.');
  if (!mapped.includes('amount')) problems.push('Choose the column that holds the amount.');
  if (!mapped.includes('currencyCode') && !template.fixed?.currencyCode) {
    problems.push('Choose the currency column, or enter one currency for the whole file.');
  }
  const checked = parseMappingTemplate(template);
  if (!checked.ok) problems.push(checked.message);
  if (reference.enabled && !/^[A-Za-z0-9 _-]{1,64}$/.test(reference.key)) {
    problems.push('The reference key may hold 1 to 64 letters, digits, spaces, underscores or dashes.');
  }

  async function importTemplate(file: File) {
    const parsed = parseMappingTemplate(await file.text());
    if (!parsed.ok) return setMessage({ severity: 'error', text: parsed.message });
    const unknown = Object.keys(parsed.template.columns).filter((h) => !headers.includes(h));
    setTemplate(parsed.template);
    setMessage({
      severity: 'success',
      text: unknown.length
        ? `Mapping loaded. These columns are not in this file and were ignored: ${unknown.join(', ')}.`
        : 'Mapping loaded.',
    });
  }

  const suggestionFor = (index: number) => suggestion?.columns.find((c) => c.index === index);

  return (
    <Stack spacing={2}>
      <Typography variant="h2">Match the columns</Typography>
      {appliedTemplateName && (
        <Alert severity="info">
          The saved mapping “{appliedTemplateName}” matches this file’s columns and was applied. Check it
          below.
        </Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography color="textSecondary" sx={{ flexGrow: 1 }}>
          Suggestions are chosen from the column names and their first values. Change any choice below.
        </Typography>
        <Button
          variant="outlined"
          size="small"
          onClick={unusedAsMetadata}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          Keep unused columns as metadata
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Column mapping">
          <TableHead>
            <TableRow>
              <TableCell>Column in your file</TableCell>
              <TableCell>First values</TableCell>
              <TableCell sx={{ minWidth: 260 }}>Use as</TableCell>
              <TableCell>Suggestion</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {headers.map((header, index) => {
              const target = targetOf(header);
              const isMetadata = target?.startsWith('metadata.');
              const s = suggestionFor(index);
              const selectId = `map-${index}`;
              return (
                <TableRow key={header}>
                  <TableCell>
                    <strong>{header}</strong>
                  </TableCell>
                  <TableCell
                    sx={{
                      color: 'text.secondary',
                      maxWidth: 260,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                    }}
                  >
                    {samples
                      .map((r) => r[index] ?? '')
                      .filter(Boolean)
                      .slice(0, 3)
                      .join(' · ')}
                  </TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={1}>
                      <TextField
                        select
                        size="small"
                        id={selectId}
                        label={`Use “${header}” as`}
                        value={isMetadata ? METADATA : (target ?? NOT_USED)}
                        onChange={(e) => setTarget(header, e.target.value)}
                        // "Not used" is shown as a choice, not as an empty box under its label.
                        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                        sx={{ minWidth: 200 }}
                      >
                        <MenuItem value={NOT_USED}>Not used</MenuItem>
                        {FIELD_TARGETS.map((t) => (
                          <MenuItem key={t} value={t} disabled={usedTargets.has(t) && target !== t}>
                            {TARGET_LABELS[t]}
                          </MenuItem>
                        ))}
                        <MenuItem value={METADATA}>Metadata (kept with the donation)</MenuItem>
                      </TextField>
                      {isMetadata && (
                        <TextField
                          size="small"
                          label="Metadata key"
                          value={target?.slice('metadata.'.length) ?? ''}
                          onChange={(e) => setMetadataKey(header, e.target.value)}
                          sx={{ width: 160 }}
                        />
                      )}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    {s?.target ? (
                      <Chip
                        size="small"
                        color={s.confidence >= 0.9 ? 'success' : 'warning'}
                        label={`${TARGET_LABELS[s.target]} · ${Math.round(s.confidence * 100)}%`}
                        title={s.reason}
                      />
                    ) : (
                      <Typography variant="body2" color="textSecondary">
                        no match
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}
        >
          <TextField
            size="small"
            label="Currency for the whole file"
            value={template.fixed?.currencyCode ?? ''}
            onChange={(e) => {
              const code = e.target.value.toUpperCase().slice(0, 3);
              const fixed = { ...template.fixed, currencyCode: code || undefined };
              setTemplate({ ...template, fixed });
            }}
            error={!!template.fixed?.currencyCode && !isCurrencyCode(template.fixed.currencyCode)}
            helperText={
              mapped.includes('currencyCode')
                ? 'Used where the currency cell is empty.'
                : suggestion?.currencyHint
                  ? `Suggested from “${suggestion.currencyHint.header}”.`
                  : 'Three-letter code, e.g. USD.'
            }
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: 220, maxWidth: '100%' }}
          />
          <TextField
            size="small"
            label="Foundation id for the whole file"
            value={template.fixed?.foundationId ?? ''}
            onChange={(e) =>
              setTemplate({
                ...template,
                fixed: { ...template.fixed, foundationId: e.target.value || undefined },
              })
            }
            helperText="Optional: the service chooses one when empty."
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: 260 }}
          />
          <TextField
            select
            size="small"
            label="Amounts are in"
            value={template.amountUnit}
            onChange={(e) => setTemplate({ ...template, amountUnit: e.target.value as 'major' | 'minor' })}
            sx={{ width: 360, maxWidth: '100%' }}
          >
            <MenuItem value="major">Units (25.50 = 25 dollars 50 cents)</MenuItem>
            <MenuItem value="minor">Cents (2550 = 25 dollars 50 cents)</MenuItem>
          </TextField>
          <TextField
            select
            size="small"
            label="Number style"
            helperText={
              numberStyle === 'auto' && detectedStyle
                ? `Found in this file: ${styleExample[detectedStyle]}`
                : undefined
            }
            value={numberStyle}
            onChange={(e) => setNumberStyle(e.target.value as WorkspaceMapping['numberStyle'])}
            sx={{ width: 220, maxWidth: '100%' }}
          >
            <MenuItem value="auto">Detect from the file</MenuItem>
            <MenuItem value="dot-decimal">1,234.56</MenuItem>
            <MenuItem value="comma-decimal">1.234,56</MenuItem>
          </TextField>
        </Stack>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ alignItems: { md: 'center' }, mt: 2 }}
        >
          <FormControlLabel
            control={
              <Switch
                checked={reference.enabled}
                onChange={(e) => setReference({ ...reference, enabled: e.target.checked })}
              />
            }
            label="Add a reference to each donation so errors and declines come back to their row"
          />
          {reference.enabled && (
            <TextField
              size="small"
              label="Reference name (sent with each donation)"
              value={reference.key}
              onChange={(e) => setReference({ ...reference, key: e.target.value })}
              sx={{ width: 300, maxWidth: '100%' }}
            />
          )}
        </Stack>
      </Paper>

      {problems.length > 0 && (
        <Alert severity="warning">
          {problems.map((p) => (
            <div key={p}>{p}</div>
          ))}
        </Alert>
      )}
      {message && <Alert severity={message.severity}>{message.text}</Alert>}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Button
          disabled={problems.length > 0}
          onClick={() => onConfirm({ template, numberStyle, reference }, templateName.trim() || null)}
        >
          {confirmLabel ?? 'Check every row'}
        </Button>
        <Button variant="outlined" onClick={onCancel}>
          Cancel
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <TextField
          size="small"
          label="Save as mapping named"
          value={templateName}
          onChange={(e) => setTemplateName(e.target.value)}
        />
        <Button variant="text" onClick={() => importInput.current?.click()}>
          Import mapping…
        </Button>
        <Button variant="text" onClick={() => download('mapping.json', JSON.stringify(template, null, 2))}>
          Export mapping
        </Button>
        <input
          ref={importInput}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label="Mapping file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void importTemplate(file);
          }}
        />
      </Stack>
    </Stack>
  );
}
