import { formatMinor } from '../amounts';
import type { AuditEntry } from '../contract/auditChannels';
import { count } from '../i18n';

/** What each action is called where a person reads the trail (screen, exports, CLI). */
export const AUDIT_ACTION_WORDS: Record<string, string> = {
  import: 'Imported a file',
  edit: 'Edited cells',
  'delete-workspace': 'Deleted a workspace',
  upload: 'Sent an upload',
  resend: 'Sent a repaired upload',
  correct: 'Corrected a declined donation',
  'fix-in-grid': 'Put declined donations in a workspace',
  'correct-from-workspace': 'Sent corrections one by one',
  'single-donation': 'Sent a single donation',
  dismiss: 'Dismissed a declined donation',
  settings: 'Changed settings',
  'release-correction': 'Released a correction left in progress',
  'approval-blocked': 'Could not approve: the file differs from its declaration',
  // Team mode: written by the team database itself when an upload changes state.
  submit: 'Submitted for approval',
  approve: 'Approved an upload',
  reject: 'Rejected an upload',
  void: 'Approval void',
  send: 'Sent',
  'not-sent': 'Not sent',
  'release-rows': 'Gave back rows the service refused',
  'team-rule': 'Changed the team’s approval rule',
  'correction-claim': 'Started correcting a declined donation',
  'correction-done': 'Finished correcting a declined donation',
  'correction-abandon': 'Gave up correcting a declined donation',
};

/**
 * An upload a computer built and hashed while its approval waits was not sent: with its details
 * given, it reads as such (the team database's own entry then says "Submitted for approval").
 */
export function auditActionWord(action: string, details?: Record<string, unknown>): string {
  if (action === 'upload' && details?.outcome === 'waiting-approval') return 'Built an upload for approval';
  return AUDIT_ACTION_WORDS[action] ?? action;
}

const ENVIRONMENT_WORDS: Record<string, string> = {
  offline: 'Offline sandbox',
  sandbox: 'Sandbox',
  production: 'Production',
  custom: 'Custom',
};

export function environmentWord(id: string): string {
  return ENVIRONMENT_WORDS[id] ?? id;
}

const SETTING_WORDS: Record<string, string> = {
  baseUrl: 'service address',
  tokenUrl: 'token address',
  programDomain: 'program domain',
  clientId: 'client id',
  clientSecret: 'client secret',
};

/** "sandbox.clientId" → "Sandbox client id"; "firstRunDone" → "Welcome page done". */
export function settingWord(setting: string): string {
  if (setting === 'environment') return 'Environment';
  if (setting === 'firstRunDone') return 'Welcome page done';
  if (setting === 'teamDatabase.address') return 'Team database address';
  if (setting === 'teamDatabase.password') return 'Team database password';
  if (setting === 'maintenanceDates') return 'Announced maintenance dates';
  const [environment, key] = setting.split('.');
  if (!environment || !key) return setting;
  return `${environmentWord(environment)} ${SETTING_WORDS[key] ?? key}`;
}

type Totals = Array<{ currencyCode: string; count: number; amount: number }>;

const asArray = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const text = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value);
const quoted = (value: unknown): string => (text(value) === '' ? '(empty)' : `“${text(value)}”`);

function totalsText(totals: Totals): string {
  return totals.map((t) => `${formatMinor(t.amount, t.currencyCode)} in ${count(t.count, 'row')}`).join(', ');
}

function bytesText(bytes: unknown): string {
  if (typeof bytes !== 'number') return '';
  if (bytes < 1024) return count(bytes, 'byte');
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** How many cells an edit lists in its one-line summary; the details keep them all. */
const CELLS_SHOWN = 3;

/** One line saying what the entry records, in plain words (amounts in their currency). */
export function describeAuditEntry(entry: Pick<AuditEntry, 'action' | 'details'>): string {
  const d = entry.details;
  if (d.outcome === 'failed') {
    const error = (d.error ?? {}) as { message?: unknown };
    return `Refused: ${text(error.message)}`;
  }
  switch (entry.action) {
    case 'import': {
      const parts = [
        `${quoted(d.fileName)}${d.sheet ? `, sheet ${quoted(d.sheet)}` : ''}`,
        typeof d.rows === 'number' ? count(d.rows, 'row') : '',
        bytesText(d.fileBytes),
        d.sha256 ? `SHA-256 ${text(d.sha256)}` : '',
      ];
      return parts.filter(Boolean).join(' · ');
    }
    case 'edit': {
      const cells = asArray<{ row: number | null; column: string; from: string; to: string }>(d.cells);
      const out: string[] = [];
      if (cells.length) {
        const shown = cells
          .slice(0, CELLS_SHOWN)
          .map(
            (c) =>
              `${c.row === null ? 'added row' : `row ${c.row}`} ${c.column}: ${quoted(c.from)} → ${quoted(c.to)}`,
          );
        const more =
          cells.length > CELLS_SHOWN ? `, and ${count(cells.length - CELLS_SHOWN, 'more cell')}` : '';
        out.push(`${count(cells.length, 'cell')} changed: ${shown.join('; ')}${more}`);
      }
      const inserted = asArray(d.inserted).length;
      const deleted = asArray(d.deleted).length;
      if (inserted) out.push(`${count(inserted, 'row')} added`);
      if (deleted) out.push(`${count(deleted, 'row')} deleted`);
      if (d.mappingChanged) out.push('column mapping changed');
      const renamed = d.renamed as { from?: string; to?: string } | null | undefined;
      if (renamed) out.push(`renamed ${quoted(renamed.from)} → ${quoted(renamed.to)}`);
      return out.join(' · ') || 'No cell changed';
    }
    case 'delete-workspace':
      return `${quoted(d.name)} (from ${quoted(d.fileName)})`;
    case 'upload':
    case 'resend': {
      const files = asArray<{ sha256: string }>(d.files);
      const hashes = files.map((f) => f.sha256).join(', ');
      const waits = d.outcome === 'waiting-approval' ? ' · waiting for approval' : '';
      return `${count(Number(d.rows ?? 0), 'row')}: ${totalsText(asArray(d.totals))} · ${count(files.length, 'file')}, SHA-256 ${hashes}${waits}`;
    }
    case 'submit':
    case 'approve':
    case 'reject':
    case 'void':
    case 'send':
    case 'not-sent': {
      const why = d.reason ? ` · ${text(d.reason)}` : '';
      const by = d.preparer ? ` prepared by ${text(d.preparer)}` : '';
      return `${quoted(d.workspaceName)}${by}: ${count(Number(d.rows ?? 0), 'row')}, ${totalsText(asArray(d.totals))} · SHA-256 ${text(d.fileSha256)} · now ${text(d.state)}${why}`;
    }
    case 'approval-blocked': {
      const why = d.problem ? text(d.problem) : asArray<string>(d.differences).map(text).join(' ');
      return `${quoted(d.workspaceName)} prepared by ${text(d.preparer)} · SHA-256 ${text(d.fileSha256)} · ${why}`;
    }
    case 'release-rows':
      return `${quoted(d.workspaceName)}: ${count(Number(d.releasedRows ?? 0), 'row')} got no donation and may be sent again by anyone in the team`;
    case 'correction-claim':
    case 'correction-done':
    case 'correction-abandon': {
      const how = d.how === 'upload' ? 'in an upload' : 'on its own';
      const by = d.claimedBy ? ` by ${text(d.claimedBy)}` : '';
      const replaced = d.replacementId ? ` · replaced by ${text(d.replacementId)}` : '';
      const state =
        d.state === 'in-progress' ? 'in progress' : d.state === 'abandoned' ? 'given up' : text(d.state);
      return `Correction${by}, ${how} · now ${state}${replaced}`;
    }
    case 'correct':
      return `Replaced by ${text(d.replacementId)}: ${formatMinor(Number(d.amount), text(d.currencyCode))} to ${text(d.recipientId)}`;
    case 'fix-in-grid':
      return `${count(asArray(d.donationIds).length, 'declined donation')} put in the workspace ${quoted(d.name)}`;
    case 'correct-from-workspace': {
      const results = asArray<{ outcome: string }>(d.results);
      const replaced = results.filter((r) => r.outcome === 'replaced').length;
      return `${count(replaced, 'donation')} replaced of ${count(results.length, 'row')}`;
    }
    case 'single-donation':
      return `${formatMinor(Number(d.amount), text(d.currencyCode))} to ${text(d.recipientId)}`;
    case 'dismiss':
      return `Reason: ${text(d.reason)}`;
    case 'release-correction': {
      const where = d.uploadId ? ` for upload ${text(d.uploadId)}` : ' on its own';
      return `Claimed by ${text(d.claimedBy)}${where} since ${text(d.since)} · Reason: ${text(d.reason)}`;
    }
    case 'settings':
      return asArray<{ setting: string; from?: unknown; to?: unknown; change?: string }>(d.changes)
        .map((c) => {
          if (c.change) return `${settingWord(c.setting)} ${c.change}`;
          if (c.setting === 'environment') {
            return `Environment ${environmentWord(text(c.from))} → ${environmentWord(text(c.to))}`;
          }
          if (typeof c.to === 'boolean') return `${settingWord(c.setting)}: ${c.to ? 'yes' : 'no'}`;
          return `${settingWord(c.setting)} ${quoted(c.from)} → ${quoted(c.to)}`;
        })
        .join('; ');
    default:
      return '';
  }
}
