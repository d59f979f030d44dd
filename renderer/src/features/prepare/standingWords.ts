import type { WorkspaceMeta, WorkspaceStanding } from '../../../../shared/contract';
import { count } from '../../../../shared/i18n';

export interface StandingWords {
  label: string;
  color: 'default' | 'info' | 'success' | 'error' | 'warning';
  /** One line saying why: which upload, when, and where it stands. */
  detail: string;
}

const uploadWords: Record<NonNullable<WorkspaceStanding['upload']>['state'], string> = {
  'waiting-approval': 'waiting for approval',
  sending: 'still being sent',
  following: 'at the service, being processed',
  processed: 'processed by the service',
  error: 'rejected by the service',
  stopped: 'stopped',
};

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Where a workspace stands, in words for Prepare's list and the workspace header. Without a
 * standing (the upload ledger could not be read) it says only what the rows say.
 */
export function standingWords(meta: Pick<WorkspaceMeta, 'standing' | 'counts'>): StandingWords {
  const standing = meta.standing;
  const upload = standing?.upload;
  const when = upload ? day.format(new Date(upload.createdAt)) : '';
  switch (standing?.kind) {
    case 'uploaded':
      return {
        label: 'Uploaded',
        color: 'success',
        detail: `Uploaded ${when}, ${uploadWords[upload!.state]}.`,
      };
    case 'needs-repair':
      return {
        label: 'Needs repair',
        color: 'error',
        detail: `The service rejected rows of the upload of ${when}. Fix them on their cells, then send the corrected rows.`,
      };
    case 'corrected':
      return {
        label: 'Corrected',
        color: 'success',
        detail: `Rejected rows corrected and sent again ${when}, ${uploadWords[upload!.state]}.`,
      };
    default: {
      if (!meta.counts)
        return { label: 'Not uploaded', color: 'default', detail: 'Open it to check its rows.' };
      const { invalid, rows } = meta.counts;
      return {
        label: 'Not uploaded',
        color: 'default',
        detail:
          invalid > 0
            ? `${count(invalid, 'row')} to fix before upload.`
            : rows > 0
              ? 'Every row is ready to upload.'
              : 'No rows yet.',
      };
    }
  }
}
