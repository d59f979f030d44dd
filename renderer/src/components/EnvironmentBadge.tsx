import { useEffect, useState } from 'react';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { EnvironmentInfo } from '../../../shared/contract';
import { sandboxSpeed } from './sandboxSpeed';
import { sandboxStaffed, sandboxStaffedHoursWords, type TimeWords } from '../../../shared/service-calendar';

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

/**
 * What the badge's tooltip says: the environment, for the Offline sandbox how fast its clock runs,
 * and for the Sandbox its staffed hours in the person's own time (and whether it is staffed now).
 */
export function environmentTooltip(
  environment: EnvironmentInfo,
  now: Date = new Date(),
  words: TimeWords = {},
): string {
  const parts = [explanations[environment.id]];
  if (environment.id === 'offline' && environment.timeScale !== undefined) {
    parts.push(sandboxSpeed(environment.timeScale), 'Move its clock forward in Settings.');
  }
  if (environment.id === 'sandbox') {
    const hours = `9:00–17:00 Mountain Time, Monday to Friday (${sandboxStaffedHoursWords(now, words)})`;
    parts.push(
      sandboxStaffed(now)
        ? `The service's staff look after the sandbox ${hours}.`
        : `Not staffed now: the service's staff look after the sandbox ${hours}. Until then it may be slow or unavailable, and nobody answers questions about it.`,
    );
  }
  return parts.join(' ');
}

/** The badge's words: for the Sandbox outside its staffed hours, that nobody looks after it now. */
export function environmentLabel(environment: EnvironmentInfo, now: Date = new Date()): string {
  if (environment.id === 'production') return 'Production: real donations';
  if (environment.id === 'sandbox' && !sandboxStaffed(now)) return `${environment.label} · not staffed now`;
  return environment.label;
}

/** The time now, again every minute (the Sandbox's staffed hours begin and end while the app is open). */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Always on screen, so nobody sends real money while believing they are practising. */
export function EnvironmentBadge({ environment }: { environment: EnvironmentInfo | undefined }) {
  const now = useMinute();
  if (!environment) return <Chip size="small" label="Connecting…" />;
  const label = environmentLabel(environment, now);
  const tooltip = environmentTooltip(environment, now);
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
