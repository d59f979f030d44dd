import type { Workspace, WorkspaceEdit } from '../../../shared/contract';

/**
 * Applies edits to a workspace in place. Edits naming a row that no longer exists are skipped: the
 * journal may hold an edit to a row a later edit deleted, and replay must not fail on it.
 */
export function applyEdits(workspace: Workspace, edits: readonly WorkspaceEdit[]): void {
  let index: Map<number, number> | null = null;
  const positionOf = (key: number): number | undefined => {
    index ??= new Map(workspace.rows.map((r, i) => [r.key, i]));
    return index.get(key);
  };
  for (const edit of edits) {
    switch (edit.op) {
      case 'set': {
        const at = positionOf(edit.key);
        const row = at === undefined ? undefined : workspace.rows[at];
        if (!row) break;
        while (row.cells.length <= edit.column) row.cells.push('');
        row.cells[edit.column] = edit.value;
        break;
      }
      case 'insert':
        workspace.rows.splice(Math.min(edit.index, workspace.rows.length), 0, {
          ...edit.row,
          cells: [...edit.row.cells],
        });
        workspace.nextKey = Math.max(workspace.nextKey, edit.row.key + 1);
        index = null;
        break;
      case 'delete': {
        const at = positionOf(edit.key);
        if (at === undefined) break;
        workspace.rows.splice(at, 1);
        index = null;
        break;
      }
      case 'mapping':
        workspace.mapping = edit.mapping;
        break;
      case 'rename':
        workspace.name = edit.name;
        break;
    }
  }
}
