import type {
  ChannelInput,
  ChannelName,
  ChannelResponse,
  PublicSettings,
  Services,
} from '../../../shared/contract';
import type { CallContext } from '../../../shared/contract/dispatch';
import type { AuditAction } from '../../../shared/contract/auditChannels';
import { ledgerGroupSchema, type LedgerGroup } from '../ledger/ledgerShapes';
import type { AuditSubject, AuditTrail } from './auditTrail';
import { splitTeamAddress } from '../settings/teamAddress';

export interface AuditedServicesOptions {
  trail: AuditTrail;
  /** The settings as the renderer sees them (never a secret), read before and after a save. */
  settings: () => PublicSettings;
  /** The ledger's record of an upload, for the rows, totals and file hashes it sent. */
  uploadGroup: (uploadId: string) => LedgerGroup | undefined;
}

type Audit<C extends ChannelName> = {
  action: AuditAction;
  subject(input: ChannelInput<C>, output?: ChannelResponse<C>): AuditSubject;
  details(input: ChannelInput<C>, output: ChannelResponse<C>): Record<string, unknown> | null;
  /** Where it happened when not the environment in force (an upload keeps its own). */
  environment?(output: ChannelResponse<C>): string;
  /** Record refused attempts too (those that move money). */
  failures?: boolean;
  /** What the refused attempt asked for, beside the error. */
  asked?(input: ChannelInput<C>): Record<string, unknown>;
};

/**
 * Wraps the handlers whose calls are actions worth an audit entry: each entry is written once the
 * action has answered (with what it answered), or, for actions that move money, once it failed.
 * The handlers themselves (uploads, Reconcile) stay unaware of the trail.
 */
export function auditedServices(services: Services, options: AuditedServicesOptions): Services {
  const { trail } = options;
  const wrapped = { ...services };
  function audit<C extends ChannelName>(channel: C, how: Audit<C>): void {
    const handler = services[channel] as (
      input: ChannelInput<C>,
      ctx: CallContext,
    ) => Promise<ChannelResponse<C>> | ChannelResponse<C>;
    const withAudit = async (input: ChannelInput<C>, ctx: CallContext): Promise<ChannelResponse<C>> => {
      let output: ChannelResponse<C>;
      try {
        output = await handler(input, ctx);
      } catch (e) {
        if (how.failures) {
          const error = e as { code?: unknown; message?: unknown };
          trail.recordDone(how.action, how.subject(input), {
            ...how.asked?.(input),
            outcome: 'failed',
            error: {
              code: typeof error.code === 'string' ? error.code : 'INTERNAL',
              message: typeof error.message === 'string' ? error.message : String(e),
            },
          });
        }
        throw e;
      }
      const details = how.details(input, output);
      if (details) {
        trail.recordDone(how.action, how.subject(input, output), details, how.environment?.(output));
      }
      return output;
    };
    (wrapped as Record<string, unknown>)[channel] = withAudit;
  }

  const uploadDetails = (uploadId: string, upload: ChannelResponse<'upload.start'>['upload']) => {
    const group = options.uploadGroup(uploadId);
    // Team mode: recorded, built and hashed, but held until an approver approves it.
    const waiting = upload.state === 'waiting-approval';
    return {
      outcome: waiting ? 'waiting-approval' : 'sent',
      workspaceName: upload.workspaceName,
      rows: upload.rows,
      totals: upload.totals,
      corrects: upload.corrects,
      ...(upload.approval ? { fileSha256: upload.approval.fileSha256, approval: upload.approval.state } : {}),
      files:
        (waiting && group
          ? group.parts.map((part) => ({
              part: part.index,
              intentId: null,
              rows: part.rowKeys.length,
              totals: part.totals,
              sha256: part.fileHash,
              bytes: part.fileBytes,
              rowNumbers: part.rowNumbers,
            }))
          : null) ??
        upload.intents.map((intent) => {
          const part = group?.parts.find((p) => p.index === intent.part);
          return {
            part: intent.part,
            intentId: intent.serviceId ?? intent.intentId,
            rows: intent.rows,
            totals: intent.totals,
            sha256: intent.fileHash,
            bytes: part?.fileBytes ?? null,
            rowNumbers: part?.rowNumbers ?? [],
          };
        }),
    };
  };

  audit('upload.start', {
    action: 'upload',
    failures: true,
    subject: (input, output) => ({ workspaceId: input.workspaceId, uploadId: output?.uploadId }),
    details: (input, output) => ({
      ...uploadDetails(output.uploadId, output.upload),
      skipInvalid: input.skipInvalid ?? false,
      confirmDuplicates: input.confirmDuplicates ?? null,
      problems: output.problems,
    }),
    environment: (output) => output.upload.environment,
  });
  audit('upload.resend', {
    action: 'resend',
    failures: true,
    asked: (input) => ({ correctsIntent: input.intentId }),
    subject: (_input, output) => ({ workspaceId: output?.upload.workspaceId, uploadId: output?.uploadId }),
    details: (input, output) => ({
      ...uploadDetails(output.uploadId, output.upload),
      correctsIntent: input.intentId,
      skipInvalid: input.skipInvalid ?? false,
      problems: output.problems,
    }),
    environment: (output) => output.upload.environment,
  });
  audit('donations.correct', {
    action: 'correct',
    failures: true,
    asked: (input) => ({ changes: input.changes }),
    subject: (input) => ({ donationId: input.donationId }),
    details: (input, output) => ({
      outcome: 'replaced',
      changes: input.changes,
      replacementId: output.replacement.id,
      amount: output.replacement.amount,
      currencyCode: output.replacement.currencyCode,
      recipientId: output.replacement.recipientId,
      retried: input.confirmRetry ?? false,
    }),
  });
  audit('donations.fixInGrid', {
    action: 'fix-in-grid',
    subject: (_input, output) => ({ workspaceId: output?.workspaceId }),
    details: (input, output) => ({ donationIds: input.donationIds, rows: output.rows, name: output.name }),
  });
  audit('donations.correctFromWorkspace', {
    action: 'correct-from-workspace',
    failures: true,
    subject: (input) => ({ workspaceId: input.workspaceId }),
    details: (_input, output) => ({
      outcome: 'done',
      results: output.results.map((r) => ({
        row: r.rowNumber,
        declinedId: r.declinedId,
        outcome: r.outcome,
        replacementId: r.replacementId,
        message: r.message,
      })),
    }),
  });
  audit('donations.create', {
    action: 'single-donation',
    failures: true,
    asked: (input) => ({ fields: input.form.fields }),
    subject: (_input, output) => ({ donationId: output?.donation.id }),
    // Sending the same form again answers the donation already made: nothing new happened.
    details: (_input, output) =>
      output.created
        ? {
            outcome: 'created',
            amount: output.donation.amount,
            currencyCode: output.donation.currencyCode,
            recipientId: output.donation.recipientId,
          }
        : null,
  });
  audit('donations.dismiss', {
    action: 'dismiss',
    subject: (input) => ({ donationId: input.donationId }),
    details: (input, output) => ({
      reason: input.reason,
      amount: output.amount,
      currencyCode: output.currencyCode,
      recipientId: output.recipientId,
    }),
  });

  const save = services['settings.save'];
  wrapped['settings.save'] = async (input, ctx) => {
    const before = options.settings();
    const after = await save(input, ctx);
    const changes = settingsChanges(before, after, input);
    if (changes.length) trail.recordDone('settings', {}, { changes }, before.environment);
    return after;
  };
  // The service's announced maintenance dates are a setting too, saved through their own channel.
  const saveDates = services['calendar.save'];
  const readDates = services['calendar.get'];
  wrapped['calendar.save'] = async (input, ctx) => {
    const before = (await readDates({}, ctx)).announcedDates.join(', ');
    const after = await saveDates(input, ctx);
    const to = after.announcedDates.join(', ');
    if (before !== to) {
      const changes: SettingChange[] = [{ setting: 'maintenanceDates', from: before, to }];
      trail.recordDone('settings', {}, { changes }, options.settings().environment);
    }
    return after;
  };
  return wrapped;
}

export interface SettingChange {
  setting: string;
  from?: string | boolean;
  to?: string | boolean;
  /** For a client secret or the team database's password: only that it was replaced or removed, never it. */
  change?: 'replaced' | 'removed';
}

/** What a save changed, from the settings the renderer may see (no secrets in them). */
export function settingsChanges(
  before: PublicSettings,
  after: PublicSettings,
  update: ChannelInput<'settings.save'>,
): SettingChange[] {
  const changes: SettingChange[] = [];
  if (before.environment !== after.environment) {
    changes.push({ setting: 'environment', from: before.environment, to: after.environment });
  }
  for (const id of ['sandbox', 'production', 'custom'] as const) {
    const was = before.remotes[id];
    const now = after.remotes[id];
    for (const key of ['baseUrl', 'tokenUrl', 'programDomain'] as const) {
      if (was.addresses[key] !== now.addresses[key]) {
        changes.push({ setting: `${id}.${key}`, from: was.addresses[key], to: now.addresses[key] });
      }
    }
    if (was.clientId !== now.clientId)
      changes.push({ setting: `${id}.clientId`, from: was.clientId, to: now.clientId });
    if (update.remote?.id === id && update.remote.clientSecret !== undefined) {
      changes.push({
        setting: `${id}.clientSecret`,
        change: update.remote.clientSecret ? 'replaced' : 'removed',
      });
    }
  }
  const team = { before: before.teamDatabase, after: after.teamDatabase };
  if (team.before.address !== team.after.address) {
    changes.push({ setting: 'teamDatabase.address', from: team.before.address, to: team.after.address });
  }
  const password = teamPasswordChange(
    team.before.passwordStored,
    team.after.passwordStored,
    update.teamDatabase,
  );
  if (password) changes.push({ setting: 'teamDatabase.password', change: password });
  if (before.firstRunDone !== after.firstRunDone) {
    changes.push({ setting: 'firstRunDone', from: before.firstRunDone, to: after.firstRunDone });
  }
  return changes;
}

/** Whether a save replaced or removed the team database's password (never the password itself). */
function teamPasswordChange(
  wasStored: boolean,
  isStored: boolean,
  update: ChannelInput<'settings.save'>['teamDatabase'],
): SettingChange['change'] | null {
  if (update === undefined) return null;
  const typed = update && (update.password || splitTeamAddress(update.address).password);
  if (typed && isStored) return 'replaced';
  if (wasStored && !isStored) return 'removed';
  return null;
}

/** The ledger's record of an upload, read from the same database. */
export function uploadGroupReader(read: (id: string) => string | undefined) {
  return (uploadId: string): LedgerGroup | undefined => {
    // Called once the upload is done: a record that cannot be read leaves the entry without the
    // row numbers and file sizes (the rows, totals and hashes come from the answer), never fails it.
    try {
      const body = read(uploadId);
      if (!body) return undefined;
      const parsed = ledgerGroupSchema.safeParse(JSON.parse(body));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };
}
