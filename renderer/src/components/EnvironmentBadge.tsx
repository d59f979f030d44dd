import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { EnvironmentInfo } from '../../../shared/contract';
import { sandboxSpeed } from './sandboxSpeed';

/**
 * Each environment's badge colour, under white text: dark enough for a 4.5:1 contrast (WCAG AA) at
 * the chip's small size. The theme's own info and warning blues and oranges are too light for that.
 */
export const BADGE_BACKGROUND: Record<EnvironmentInfo['id'], string> = {
  offline: '#2e7d32',
  sandbox: '#01579b',
  production: '#c62828',
  custom: '#8a4200',
};

const explanations: Record<EnvironmentInfo['id'], string> = {
  offline: 'A practice copy of the giving service on this computer: nothing leaves your machine.',
  sandbox: 'The service’s test environment: a real connection, no real money.',
  production: 'The live service: donations are real and will be paid.',
  custom: 'A service address entered in Settings.',
};

/** What the badge's tooltip says: the environment, and for the Offline sandbox how fast its clock runs. */
export function environmentTooltip(environment: EnvironmentInfo): string {
  const parts = [explanations[environment.id]];
  if (environment.id === 'offline' && environment.timeScale !== undefined) {
    parts.push(sandboxSpeed(environment.timeScale), 'Move its clock forward in Settings.');
  }
  return parts.join(' ');
}

/** Always on screen, so nobody sends real money while believing they are practising. */
export function EnvironmentBadge({ environment }: { environment: EnvironmentInfo | undefined }) {
  if (!environment) return <Chip size="small" label="Connecting…" />;
  const label = environment.id === 'production' ? 'Production: real donations' : environment.label;
  const tooltip = environmentTooltip(environment);
  return (
    <Tooltip title={tooltip} describeChild>
      <Chip
        data-testid="environment-badge"
        label={label}
        aria-label={`Environment: ${label}`}
        tabIndex={0}
        sx={{ fontWeight: 600, color: '#fff', bgcolor: BADGE_BACKGROUND[environment.id] }}
      />
    </Tooltip>
  );
}
