import { desk } from '../../../app/deskClient';
import { base64ToBytes } from '../../../app/bytes';
import { downloadBytes } from '../../../lib/downloadBytes';
import { count } from '../../../../../shared/i18n';
import { exportCorrectedSheet, exportInvalidRows } from '../exportSheets';
import type { WorkspaceModel } from '../model/useWorkspaceModel';
import { bulkFileExportedWords } from './exportWords';

export type ReviewNotice = { severity: 'success' | 'error' | 'info'; text: string } | null;

/** Sending and exporting from the open workspace, each saying how it went in the screen's notice. */
export function useWorkspaceExports(model: WorkspaceModel, setNotice: (notice: ReviewNotice) => void) {
  /**
   * Main builds uploads and the bulk file from its own copy: every edit on screen must be saved
   * there first. False, with the reason shown, when one could not be.
   */
  async function savedForMain(): Promise<boolean> {
    if (await model.whenSaved()) return true;
    setNotice({
      severity: 'error',
      text: 'Your last changes could not be saved, so nothing was sent or exported. Reopen the workspace to continue.',
    });
    return false;
  }

  async function exportBulkFile() {
    setNotice({ severity: 'info', text: 'Building the bulk file…' });
    if (!(await savedForMain())) return;
    const result = await desk['workspace.exportBulkFile']({ id: model.id });
    if (!result.ok) return setNotice({ severity: 'error', text: result.error.message });
    downloadBytes(result.value.fileName, base64ToBytes(result.value.base64), 'application/gzip');
    setNotice({
      severity: 'success',
      text: bulkFileExportedWords(result.value.donations, result.value.skipped),
    });
  }

  async function exportInvalid() {
    const exported = await exportInvalidRows(
      model.source.fileName,
      model.headers,
      model.rows,
      model.resultOf,
    );
    setNotice({
      severity: 'success',
      text: `${count(exported, 'row')} to fix exported, each with its errors.`,
    });
  }

  async function exportCorrected() {
    await exportCorrectedSheet(model.source.fileName, model.source.sheet, model.headers, model.rows);
    setNotice({ severity: 'success', text: 'Corrected sheet exported.' });
  }

  return { savedForMain, exportBulkFile, exportInvalid, exportCorrected };
}
