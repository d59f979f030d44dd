import type { AuditAction } from '../../../shared/contract/auditChannels';
import type { AuditStore } from './auditStore';
import type { DeskIdentity } from '../core/identity';

export interface AuditSubject {
  workspaceId?: string | null;
  uploadId?: string | null;
  donationId?: string | null;
}

/**
 * Records what a person did: when (UTC, from this computer's clock), who (the identity passed in
 * at start-up), in which environment, what, about which workspace, upload or donation.
 */
export class AuditTrail {
  constructor(
    readonly store: AuditStore,
    private readonly identity: DeskIdentity,
    private readonly environment: () => string,
    private readonly log: (message: string) => void = (m) => console.error(m),
  ) {}

  private readonly written: Array<() => void> = [];

  /** Called after each entry is written (team mode copies it to the team's trail in the background). */
  onWritten(listener: () => void): void {
    this.written.push(listener);
  }

  record(
    action: AuditAction,
    subject: AuditSubject,
    details: Record<string, unknown>,
    environment?: string,
  ): number {
    const seq = this.store.insert({
      at: new Date().toISOString(),
      person: this.identity.person(),
      computer: this.identity.computer(),
      environment: environment ?? this.environment(),
      action,
      workspaceId: subject.workspaceId ?? null,
      uploadId: subject.uploadId ?? null,
      donationId: subject.donationId ?? null,
      details,
    });
    for (const listener of this.written) {
      try {
        listener();
      } catch (e) {
        // The entry is written; only what follows it (a copy to the team's trail) is late.
        this.log(`Audit trail: after "${action}": ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return seq;
  }

  /**
   * For actions already done and durable (an edit in the journal, a file at the service): a failed
   * write of their entry (the database busy for long) must not report the action itself as failed,
   * which would have the person do it twice. The failure goes to the log, with what was lost.
   */
  recordDone(
    action: AuditAction,
    subject: AuditSubject,
    details: Record<string, unknown>,
    environment?: string,
  ): void {
    try {
      this.record(action, subject, details, environment);
    } catch (e) {
      this.log(
        `Audit trail: the entry for "${action}" (${JSON.stringify(subject)}) could not be written: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
}
