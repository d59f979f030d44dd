import type { ChannelResponse } from '../../../../shared/contract';
import { waitsForApprover, type ApprovalRule } from '../../../../shared/team/approvalWait';

type Preview = ChannelResponse<'upload.preview'>;

/** What the upload dialog will send, as the preview worked it out. */
export interface WhatGoes {
  /** Rows sent, files, and their count and amount per currency. */
  valid: number;
  parts: number;
  totals: Preview['totals'];
  /** Rows sent before that "send only the new rows" leaves out (0 otherwise). */
  leftOut: number;
  /** Whether the team's rule holds it for an approver (never for corrections sent one by one). */
  forApproval: boolean;
}

/**
 * With "send only the new rows" chosen, only the rows never sent before go: the summary, the list
 * per currency and the team's rule take their totals, not the whole workspace's.
 */
export function whatGoes(
  preview: Preview,
  choice: { onlyNew: boolean; resend: boolean; oneByOne: boolean },
  rule: ApprovalRule | null,
): WhatGoes {
  const fresh = choice.onlyNew && !choice.resend && !choice.oneByOne ? preview.onlyNew : null;
  const going = fresh ?? preview;
  return {
    valid: going.valid,
    parts: going.parts,
    totals: going.totals,
    leftOut: fresh ? preview.valid - fresh.valid : 0,
    forApproval: !choice.oneByOne && !!rule && waitsForApprover(rule, going.totals),
  };
}
