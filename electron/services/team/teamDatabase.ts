import type { TeamAudit, TeamDatabase } from './teamTypes';
import { TeamDbAudit } from './teamDbAudit';
import { TeamDbLeases } from './teamDbLeases';
import { TeamDbLedger } from './teamDbLedger';
import { TeamDbPool, type PgTeamDatabaseOptions } from './teamDbPool';
import { TeamDbUploads } from './teamDbUploads';

export type { PgTeamDatabaseOptions } from './teamDbPool';

/**
 * The team database over a small `pg` pool. Every refusal comes from the server (roles, grants,
 * triggers, the desk.* functions) and is answered as a DeskFailure in plain words. This class only
 * hands each call to the module that does that job: the connection and roles (teamDbPool), uploads
 * and approvals (teamDbUploads), the shared ledger (teamDbLedger), leases (teamDbLeases) and the
 * audit trail (teamDbAudit).
 */
export class PgTeamDatabase implements TeamDatabase {
  readonly server: string;
  readonly audit: TeamAudit;
  private readonly db: TeamDbPool;
  private readonly uploadsAndApprovals: TeamDbUploads;
  private readonly ledger: TeamDbLedger;
  private readonly leases: TeamDbLeases;

  constructor(options: PgTeamDatabaseOptions) {
    this.db = new TeamDbPool(options);
    this.server = this.db.server;
    this.uploadsAndApprovals = new TeamDbUploads(this.db);
    this.ledger = new TeamDbLedger(this.db);
    this.leases = new TeamDbLeases(this.db);
    const trail = new TeamDbAudit(this.db);
    this.audit = {
      push: (origin, entries) => trail.pushAudit(origin, entries),
      list: (filter, before, limit) => trail.listAudit(filter, before, limit),
      all: (filter) => trail.allAudit(filter),
      verify: () => trail.verifyAudit(),
    };
  }

  schemaVersion(...args: Parameters<TeamDbPool['schemaVersion']>): ReturnType<TeamDbPool['schemaVersion']> {
    return this.db.schemaVersion(...args);
  }

  newsClient(): ReturnType<TeamDbPool['newsClient']> {
    return this.db.newsClient();
  }

  who(...args: Parameters<TeamDbPool['who']>): ReturnType<TeamDbPool['who']> {
    return this.db.who(...args);
  }

  rule(...args: Parameters<TeamDbUploads['rule']>): ReturnType<TeamDbUploads['rule']> {
    return this.uploadsAndApprovals.rule(...args);
  }

  setRule(...args: Parameters<TeamDbUploads['setRule']>): ReturnType<TeamDbUploads['setRule']> {
    return this.uploadsAndApprovals.setRule(...args);
  }

  needsApproval(
    ...args: Parameters<TeamDbUploads['needsApproval']>
  ): ReturnType<TeamDbUploads['needsApproval']> {
    return this.uploadsAndApprovals.needsApproval(...args);
  }

  claimRows(...args: Parameters<TeamDbUploads['claimRows']>): ReturnType<TeamDbUploads['claimRows']> {
    return this.uploadsAndApprovals.claimRows(...args);
  }

  sentElsewhere(
    ...args: Parameters<TeamDbUploads['sentElsewhere']>
  ): ReturnType<TeamDbUploads['sentElsewhere']> {
    return this.uploadsAndApprovals.sentElsewhere(...args);
  }

  submit(...args: Parameters<TeamDbUploads['submit']>): ReturnType<TeamDbUploads['submit']> {
    return this.uploadsAndApprovals.submit(...args);
  }

  decide(...args: Parameters<TeamDbUploads['decide']>): ReturnType<TeamDbUploads['decide']> {
    return this.uploadsAndApprovals.decide(...args);
  }

  voidUpload(...args: Parameters<TeamDbUploads['voidUpload']>): ReturnType<TeamDbUploads['voidUpload']> {
    return this.uploadsAndApprovals.voidUpload(...args);
  }

  markSent(...args: Parameters<TeamDbUploads['markSent']>): ReturnType<TeamDbUploads['markSent']> {
    return this.uploadsAndApprovals.markSent(...args);
  }

  unmarkSent(...args: Parameters<TeamDbUploads['unmarkSent']>): ReturnType<TeamDbUploads['unmarkSent']> {
    return this.uploadsAndApprovals.unmarkSent(...args);
  }

  storeUploadFile(
    ...args: Parameters<TeamDbUploads['storeUploadFile']>
  ): ReturnType<TeamDbUploads['storeUploadFile']> {
    return this.uploadsAndApprovals.storeUploadFile(...args);
  }

  fetchUploadFile(
    ...args: Parameters<TeamDbUploads['fetchUploadFile']>
  ): ReturnType<TeamDbUploads['fetchUploadFile']> {
    return this.uploadsAndApprovals.fetchUploadFile(...args);
  }

  uploadsToSend(
    ...args: Parameters<TeamDbUploads['uploadsToSend']>
  ): ReturnType<TeamDbUploads['uploadsToSend']> {
    return this.uploadsAndApprovals.uploadsToSend(...args);
  }

  uploadBulks(...args: Parameters<TeamDbLedger['uploadBulks']>): ReturnType<TeamDbLedger['uploadBulks']> {
    return this.ledger.uploadBulks(...args);
  }

  releaseRows(...args: Parameters<TeamDbUploads['releaseRows']>): ReturnType<TeamDbUploads['releaseRows']> {
    return this.uploadsAndApprovals.releaseRows(...args);
  }

  upload(...args: Parameters<TeamDbUploads['upload']>): ReturnType<TeamDbUploads['upload']> {
    return this.uploadsAndApprovals.upload(...args);
  }

  uploads(...args: Parameters<TeamDbUploads['uploads']>): ReturnType<TeamDbUploads['uploads']> {
    return this.uploadsAndApprovals.uploads(...args);
  }

  monthTotals(...args: Parameters<TeamDbUploads['monthTotals']>): ReturnType<TeamDbUploads['monthTotals']> {
    return this.uploadsAndApprovals.monthTotals(...args);
  }

  lease(...args: Parameters<TeamDbLeases['lease']>): ReturnType<TeamDbLeases['lease']> {
    return this.leases.lease(...args);
  }

  releaseLease(...args: Parameters<TeamDbLeases['releaseLease']>): ReturnType<TeamDbLeases['releaseLease']> {
    return this.leases.releaseLease(...args);
  }

  claimCorrection(
    ...args: Parameters<TeamDbLedger['claimCorrection']>
  ): ReturnType<TeamDbLedger['claimCorrection']> {
    return this.ledger.claimCorrection(...args);
  }

  finishCorrection(
    ...args: Parameters<TeamDbLedger['finishCorrection']>
  ): ReturnType<TeamDbLedger['finishCorrection']> {
    return this.ledger.finishCorrection(...args);
  }

  abandonCorrection(
    ...args: Parameters<TeamDbLedger['abandonCorrection']>
  ): ReturnType<TeamDbLedger['abandonCorrection']> {
    return this.ledger.abandonCorrection(...args);
  }

  uploadCorrections(
    ...args: Parameters<TeamDbLedger['uploadCorrections']>
  ): ReturnType<TeamDbLedger['uploadCorrections']> {
    return this.ledger.uploadCorrections(...args);
  }

  giveBackUploadCorrections(
    ...args: Parameters<TeamDbLedger['giveBackUploadCorrections']>
  ): ReturnType<TeamDbLedger['giveBackUploadCorrections']> {
    return this.ledger.giveBackUploadCorrections(...args);
  }

  correctionsInProgress(
    ...args: Parameters<TeamDbLedger['correctionsInProgress']>
  ): ReturnType<TeamDbLedger['correctionsInProgress']> {
    return this.ledger.correctionsInProgress(...args);
  }

  corrections(...args: Parameters<TeamDbLedger['corrections']>): ReturnType<TeamDbLedger['corrections']> {
    return this.ledger.corrections(...args);
  }

  publishBulk(...args: Parameters<TeamDbLedger['publishBulk']>): ReturnType<TeamDbLedger['publishBulk']> {
    return this.ledger.publishBulk(...args);
  }

  teamBulks(...args: Parameters<TeamDbLedger['teamBulks']>): ReturnType<TeamDbLedger['teamBulks']> {
    return this.ledger.teamBulks(...args);
  }

  publishOne(...args: Parameters<TeamDbLedger['publishOne']>): ReturnType<TeamDbLedger['publishOne']> {
    return this.ledger.publishOne(...args);
  }

  sentOneByOne(...args: Parameters<TeamDbLedger['sentOneByOne']>): ReturnType<TeamDbLedger['sentOneByOne']> {
    return this.ledger.sentOneByOne(...args);
  }

  dismiss(...args: Parameters<TeamDbLedger['dismiss']>): ReturnType<TeamDbLedger['dismiss']> {
    return this.ledger.dismiss(...args);
  }

  dismissals(...args: Parameters<TeamDbLedger['dismissals']>): ReturnType<TeamDbLedger['dismissals']> {
    return this.ledger.dismissals(...args);
  }

  close(...args: Parameters<TeamDbPool['close']>): ReturnType<TeamDbPool['close']> {
    return this.db.close(...args);
  }
}
