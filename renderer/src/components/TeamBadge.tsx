import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { TeamStatus } from '../../../shared/contract';

export const UNREACHABLE_WORDS =
  'Team database unreachable — preparing and checking still work; sending and approving need it.';

/** The server's problem without the advice the banner already gives. */
export function problemOnly(problem: string | null): string {
  return (problem ?? '')
    .replace(/\s*Preparing and checking (still )?work[^.]*; sending and approving need it\.?/i, '')
    .trim();
}

const roleWords: Record<string, string> = {
  desk_preparer: 'preparer',
  desk_approver: 'approver',
  desk_admin: 'admin',
};

/** "preparer and approver"; "no desk role" when the server grants none. */
export function rolesInWords(roles: readonly string[]): string {
  const words = roles.map((r) => roleWords[r] ?? r);
  if (words.length === 0) return 'no desk role';
  return new Intl.ListFormat(undefined, { style: 'long', type: 'conjunction' }).format(words);
}

/**
 * In team mode, beside the environment: the shared server and who it says you are; red when it
 * cannot be reached. Nothing at all while working alone.
 */
export function TeamBadge({ status }: { status: TeamStatus | null }) {
  if (!status || status.mode === 'alone') return null;
  const source =
    status.source === 'environment' ? 'from DONATION_DESK_DATABASE_URL' : 'from Settings → Team database';
  if (!status.reachable) {
    return (
      <Tooltip
        title={`${UNREACHABLE_WORDS} ${problemOnly(status.problem)} (${status.server}, ${source})`}
        describeChild
      >
        <Chip
          data-testid="team-badge"
          data-state="unreachable"
          label={`Team database unreachable: ${status.server}`}
          tabIndex={0}
          sx={{ fontWeight: 600, color: '#fff', bgcolor: '#b3261e' }}
        />
      </Tooltip>
    );
  }
  const label = `Team: ${status.server} · ${status.login ?? 'unknown login'}`;
  return (
    <Tooltip
      title={`The team database at ${status.server} (${source}). The server knows you as ${status.login ?? 'an unknown login'}, ${rolesInWords(status.roles)}.`}
      describeChild
    >
      <Chip
        data-testid="team-badge"
        data-state="reachable"
        label={label}
        variant="outlined"
        tabIndex={0}
        sx={{ fontWeight: 600, color: '#fff', borderColor: 'rgba(255,255,255,0.8)' }}
      />
    </Tooltip>
  );
}
