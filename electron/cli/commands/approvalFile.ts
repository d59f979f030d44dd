import type { FileReview } from '../../../shared/contract';
import { count } from '../../../shared/i18n';
import type { DeskRuntime } from '../../services';
import { codeAmount } from '../../services/team/fileReview/declaredDifferences';
import {
  blockedDetails,
  isTamperSign,
  readUploadFile,
  whyFileBlocks,
} from '../../services/team/fileReview/readUploadFile';
import { whyNotDecide } from '../../services/team/teamServices';
import type { TeamDatabase, TeamUpload } from '../../services/team/teamTypes';
import { EXIT } from '../exitCodes';
import type { CliContext } from '../main';

/*
 * What `approvals` and `approve` show of an upload's file: read on this computer from the parts the
 * team database stores, beside what the preparer's app declared. A file that differs, or that cannot
 * be checked, is not approved (exit code 5).
 */

const amounts = (totals: TeamUpload['totals']) =>
  totals.length === 0
    ? 'nothing'
    : totals.map((t) => `${codeAmount(t.amount, t.currencyCode)} (${count(t.count, 'donation')})`).join('; ');

/** The lines that follow an upload's own line in `approvals`. */
export function fileLines(upload: TeamUpload, file: FileReview): string[] {
  if (!file.checked) return [`    The file: ${file.problem}`];
  const lines = [
    `    The file holds ${count(file.rows.length, 'donation')}: ${amounts(file.totals)}`,
    `    The preparer's app declared ${count(upload.rows, 'donation')}: ${amounts(upload.totals)}`,
  ];
  for (const w of file.warnings) lines.push(`    Warning: ${w}`);
  for (const d of file.differences) lines.push(`    ${d}`);
  return lines;
}

/** The upload's file as this computer reads it (see readUploadFile). */
export const readFileOf = (team: TeamDatabase, upload: TeamUpload) => readUploadFile(team, upload);

/**
 * Before `approve` asks the team database: reads the file; when it blocks approval, says why,
 * writes a sign of tampering to the audit trail, and answers exit code 5 (null: go on).
 */
export async function refuseUnlessFileAgrees(
  ctx: CliContext,
  desk: DeskRuntime,
  team: TeamDatabase,
  upload: TeamUpload,
): Promise<number | null> {
  // What the database refuses anyway (one's own upload, no approver role, decided): in its words.
  if (whyNotDecide(upload, await team.who()) !== null) return null;
  const file = await readUploadFile(team, upload);
  const blocked = whyFileBlocks(file);
  if (blocked === null) return null;
  if (isTamperSign(file)) {
    desk.audit.recordDone('approval-blocked', { uploadId: upload.id }, blockedDetails(upload, file));
  }
  if (ctx.json) {
    ctx.io.out(JSON.stringify({ approved: false, uploadId: upload.id, reason: blocked, file }, null, 2));
  }
  ctx.io.err(`Not approved: ${blocked}`);
  return EXIT.fileNotAsDeclared;
}
