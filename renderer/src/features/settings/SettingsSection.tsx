import type { FormEvent, ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface SettingsSectionProps {
  /** The heading's id: the section (or form) is named by its heading through aria-labelledby. */
  titleId: string;
  title: ReactNode;
  /** The heading's level (h2 unless said). */
  level?: 2 | 3;
  /** What the section is for, in secondary text under the heading. */
  description?: ReactNode;
  descriptionVariant?: 'body1' | 'body2';
  /** Given, the section is its own form: Enter in its fields submits it, nothing else. */
  onSubmit?: (event: FormEvent) => void;
  spacing?: number;
  children: ReactNode;
}

/** One part of Settings: an outlined box at most 720 pixels wide, named by its heading. */
export function SettingsSection({
  titleId,
  title,
  level = 2,
  description,
  descriptionVariant = 'body1',
  onSubmit,
  spacing = 2,
  children,
}: SettingsSectionProps) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, maxWidth: 720 }}
      component={onSubmit ? 'form' : 'section'}
      onSubmit={onSubmit}
      aria-labelledby={titleId}
    >
      <Stack spacing={spacing}>
        <Typography variant={`h${level}`} id={titleId}>
          {title}
        </Typography>
        {description && (
          <Typography variant={descriptionVariant} color="textSecondary">
            {description}
          </Typography>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** The outcome of what was just done in a section: an error is an alert, anything else a status. */
export function SettingsStatus({
  severity,
  testId,
  children,
}: {
  severity: 'success' | 'info' | 'warning' | 'error';
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Alert severity={severity} role={severity === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </Alert>
  );
}
