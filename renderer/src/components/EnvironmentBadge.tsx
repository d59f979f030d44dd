import Chip from '@mui/material/Chip';
import type { EnvironmentInfo } from '../../../shared/contract';

const colours: Record<EnvironmentInfo['id'], 'success' | 'info' | 'error' | 'warning'> = {
  offline: 'success',
  sandbox: 'info',
  production: 'error',
  custom: 'warning',
};

/** Always on screen, so nobody sends real money while believing they are practising. */
export function EnvironmentBadge({ environment }: { environment: EnvironmentInfo | undefined }) {
  if (!environment) return <Chip size="small" label="Connecting…" />;
  const label = environment.id === 'production' ? 'Production: real donations' : environment.label;
  return (
    <Chip
      data-testid="environment-badge"
      color={colours[environment.id]}
      label={label}
      aria-label={`Environment: ${label}`}
      sx={{ fontWeight: 600, color: '#fff' }}
    />
  );
}
