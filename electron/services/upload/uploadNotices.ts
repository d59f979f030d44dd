/*
 * What the person hears of an upload: progress events while it is prepared and sent, and once per
 * bulk a job status and a notification when the service has finished with it.
 */
import { count } from '../../../shared/i18n';
import type { LedgerIntent } from '../ledger/ledgerShapes';
import type { UploadBasics } from './basics';
import { uploadView } from './views';

export type Stage = 'validating' | 'building' | 'compressing' | 'creating-intent' | 'uploading' | 'uploaded';

export class UploadNotices {
  private readonly notified = new Set<string>();

  constructor(private readonly ctx: Pick<UploadBasics, 'events' | 'ledger' | 'platform'>) {}

  progress(
    workspaceId: string,
    uploadId: string,
    part: number,
    parts: number,
    stage: Stage,
    done: number,
    total: number | null,
  ): void {
    this.ctx.events.emit('upload.progress', { workspaceId, uploadId, part, parts, stage, done, total });
    this.ctx.events.emit('job.progress', { jobId: uploadId, kind: 'upload', stage, done, total });
  }

  /** A bulk reached PROCESSED or ERROR (told once per attempt). */
  finished(intent: LedgerIntent): void {
    if (this.notified.has(intent.attemptId)) return;
    this.notified.add(intent.attemptId);
    const { ctx } = this;
    const group = ctx.ledger.group(intent.groupId);
    const name = group?.workspaceName ?? 'Upload';
    if (group) {
      const view = uploadView(group, ctx.ledger.allIntents());
      if (view.state === 'processed' || view.state === 'error') {
        ctx.events.emit('job.status', {
          jobId: group.id,
          kind: 'upload',
          status: view.state === 'processed' ? 'succeeded' : 'failed',
          message:
            view.state === 'processed'
              ? `${count(view.rows, 'donation')} processed.`
              : 'The service rejected part of the upload.',
        });
      }
    }
    if (intent.state === 'PROCESSED') {
      ctx.platform.notify?.(
        'Upload processed',
        `${name}: ${count(intent.counts.accepted ?? group?.parts[intent.part]?.rowKeys.length ?? 0, 'donation')} accepted.`,
      );
    } else if (intent.state === 'ERROR') {
      ctx.platform.notify?.(
        'Upload needs attention',
        `${name}: the service rejected bulk ${intent.serviceId ?? ''}. Open it to see the errors.`,
      );
    }
  }
}
