import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { TeamStatus } from '../../../shared/contract';
import { formatMinor } from '../../../shared/amounts';
import { encryptionInWords, plaintextOverNetwork } from '../../../shared/team/encryptionWords';

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

type ApprovalPolicyView = NonNullable<Extract<TeamStatus, { mode: 'team' }>['rule']>;

/**
 * The team's approval policy (its "rule" on screen) in a sentence: when an upload waits for an approver, and whose computer sends it
 * once approved ("the preparer's" by default, or "the approver's").
 */
export function approvalPolicyInWords(rule: ApprovalPolicyView): string {
  const thresholds = Object.entries(rule.thresholds).map(([code, amount]) => formatMinor(amount, code));
  const when =
    rule.approval === 'always'
      ? 'Every upload waits for an approver'
      : rule.approval === 'never'
        ? 'Uploads go out without an approval'
        : `An upload waits for an approver when its total in a currency is above ${
            thresholds.length
              ? new Intl.ListFormat(undefined, { style: 'long', type: 'disjunction' }).format(thresholds)
              : 'its threshold'
          } (a currency without a threshold always asks)`;
  if (rule.approval === 'never') return `${when}; the preparer’s computer sends them.`;
  return rule.sender === 'approver'
    ? `${when}; once approved, the approver’s computer sends it (the preparer’s computer stores the exact file with the upload).`
    : `${when}; once approved, the preparer’s computer sends it.`;
}

/** The header's few words on encryption: shown when encrypted, and as a warning for plaintext across a network. */
function encryptionLabel(status: Extract<TeamStatus, { mode: 'team' }>): string {
  if (status.encryption?.encrypted) return ` · ${encryptionInWords(status.encryption, status.local)}`;
  return plaintextOverNetwork(status.encryption, status.local) ? ' · not encrypted' : '';
}

/**
 * In team mode, beside the environment: the shared server, who it says you are and whether the
 * connection is encrypted; red when it cannot be reached, amber when it is plaintext across a
 * network. Nothing at all while working alone.
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
  const label = `Team: ${status.server} · ${status.login ?? 'unknown login'}${encryptionLabel(status)}`;
  const exposed = plaintextOverNetwork(status.encryption, status.local);
  return (
    <Tooltip
      title={`The team database at ${status.server} (${source}). The server knows you as ${status.login ?? 'an unknown login'}, ${rolesInWords(status.roles)}. The connection is ${encryptionInWords(status.encryption, status.local)}.`}
      describeChild
    >
      <Chip
        data-testid="team-badge"
        data-state="reachable"
        data-encrypted={status.encryption ? String(status.encryption.encrypted) : 'unknown'}
        label={label}
        variant={exposed ? 'filled' : 'outlined'}
        tabIndex={0}
        sx={
          exposed
            ? { fontWeight: 600, color: '#1f1300', bgcolor: '#ffb74d' }
            : { fontWeight: 600, color: '#fff', borderColor: 'rgba(255,255,255,0.8)' }
        }
      />
    </Tooltip>
  );
}
