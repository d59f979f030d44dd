import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Workspace } from '../../../../../shared/contract';
import { desk } from '../../../app/deskClient';
import type { RefusedRow } from '../model/serviceRefusals';
import type { WorkspaceModel } from '../model/useWorkspaceModel';
import { repairNoteWords } from '../repairNote';
import { serviceErrorsFrom, stillApplying, type ServiceError } from './serviceErrors';

/**
 * The service's errors of a failed upload being repaired, fetched once: those that still apply to a
 * row, the note above the grid, and the rows the app's checks pass but the service refused.
 */
export function useServiceErrors(
  repairIntentId: string | undefined,
  workspace: Workspace,
  model: WorkspaceModel,
) {
  const [serviceErrors, setServiceErrors] = useState<ServiceError[] | null>(null);
  const [repairNote, setRepairNote] = useState<string | null>(null);

  useEffect(() => {
    if (!repairIntentId) return;
    let live = true;
    void desk['upload.errors']({ intentId: repairIntentId }).then((r) => {
      if (!live) return;
      if (!r.ok) return setRepairNote(r.error.message);
      setServiceErrors(serviceErrorsFrom(r.value.issues, workspace.rows));
      setRepairNote(repairNoteWords(r.value));
    });
    return () => {
      live = false;
    };
  }, [repairIntentId, workspace.rows]);

  const serviceKeys = useMemo(() => new Set(serviceErrors?.map((e) => e.rowKey) ?? []), [serviceErrors]);
  const serviceErrorsOf = useCallback(
    (key: number): ServiceError[] => {
      if (!serviceErrors || !serviceKeys.has(key)) return [];
      return stillApplying(
        serviceErrors,
        key,
        model.rows.find((r) => r.key === key),
      );
    },
    [serviceErrors, serviceKeys, model.rows],
  );
  // Rows the app's checks pass but the service refused on a cell, while that cell is unchanged. A
  // problem about a whole donation (a partial extraction's rows not created) needs no change in the
  // row, so it does not make the row invalid.
  const refusedValidRows = useMemo(() => {
    const refused: RefusedRow[] = [];
    for (const key of serviceKeys) {
      if (key === null) continue;
      const result = model.resultOf(key);
      if (!result?.ok || !serviceErrorsOf(key).some((e) => e.columnIndex !== null)) continue;
      refused.push({
        currencyCode: result.donation.funds.currencyCode,
        amount: result.donation.funds.amount,
      });
    }
    return refused;
    // resultsVersion marks a change in what resultOf returns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serviceKeys, serviceErrorsOf, model.resultOf, model.resultsVersion]);
  const fileLevelServiceErrors = serviceErrors?.filter((e) => e.rowKey === null) ?? [];

  return { serviceErrors, repairNote, serviceErrorsOf, refusedValidRows, fileLevelServiceErrors };
}
