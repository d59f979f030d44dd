import type { AuditEntry, AuditFilter, TrailCheck } from '../../../shared/contract/auditChannels';

/** One trail checked link by link: whole, or the first entry broken and why (see auditChain.ts). */
export type { TrailCheck };

/** A trail kept elsewhere and read the way the Audit view reads this folder's own (newest first). */
export interface SharedAuditTrail {
  list(
    filter: AuditFilter,
    before?: number,
    limit?: number,
  ): Promise<{ entries: AuditEntry[]; total: number; nextBefore: number | null; people: string[] }>;
  all(filter: AuditFilter): Promise<AuditEntry[]>;
}

/**
 * How this data folder's trail is shared with colleagues. Audit owns the interface; team mode
 * implements it (the team database's outbox) and the composition root chooses it. Working alone,
 * nothing is shared (`notShared`) and the Audit view reads this folder's own trail.
 */
export interface AuditSharing {
  /** After each local write: copy the new entries on in the background. */
  schedule(): void;
  /** The shared trail in force, with this folder's latest entries copied first (best effort); null alone. */
  sharedTrail(): Promise<SharedAuditTrail | null>;
  /**
   * Checks the shared trail's chain (computed where it is kept). Asked only while `sharedTrail()`
   * answers a trail; a sharing that cannot check leaves it out, and only this folder's is checked.
   */
  verifyTeamTrail?(): Promise<TrailCheck>;
}

export const notShared: AuditSharing = {
  schedule: () => undefined,
  sharedTrail: async () => null,
};
