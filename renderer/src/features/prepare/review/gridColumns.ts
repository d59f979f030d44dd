import { targetLabel } from '../../../../../shared/mapping';
import type { WorkspaceMapping } from '../../../../../shared/workspace';
import type { GridColumn } from '../../../components/grid/DataGrid';

/** The grid's columns: each header with what it is mapped to. */
export function gridColumns(headers: readonly string[], mapping: WorkspaceMapping | null): GridColumn[] {
  const byHeader = mapping?.template.columns ?? {};
  return headers.map((header) => {
    const target = byHeader[header];
    const label = target ? targetLabel(target) : undefined;
    return {
      header,
      target: label,
      // Wide enough for the header and for what it is used as ("Receipt wanted (yes/no)"), in its
      // smaller type.
      width: Math.min(260, Math.max(120, header.length * 9 + 40, (label?.length ?? 0) * 7 + 24)),
    };
  });
}

/** The column mapped to the recipient; -1 when none is. */
export function recipientColumnOf(headers: readonly string[], mapping: WorkspaceMapping | null): number {
  return headers.findIndex((h) => mapping?.template.columns[h] === 'recipientId');
}
