import type { Workspace, WorkspaceEdit } from '../../../shared/contract';

export interface CellChange {
  /** The row's key in the workspace, and its row number in the source sheet (null for an added row). */
  key: number;
  row: number | null;
  column: string;
  from: string;
  to: string;
}

export interface RowChange {
  key: number;
  row: number | null;
  cells: string[];
}

/** What one call of edits changed, with the values before: the audit trail's view of an edit. */
export interface WorkspaceChanges {
  cells: CellChange[];
  inserted: RowChange[];
  deleted: RowChange[];
  mappingChanged: boolean;
  renamed: { from: string; to: string } | null;
}

/**
 * The workspace being edited, held in main so each edit's old values are known without reading the
 * workspace from disk again: the edit path stays a journal append plus one audit insert. Applies
 * edits exactly as applyEdits does (the tests hold the two to the same result), with a row index
 * kept between calls instead of rebuilt on each.
 */
export class HeldWorkspace {
  private index: Map<number, number> | null = null;

  constructor(
    readonly id: string,
    private readonly workspace: Workspace,
  ) {}

  /** Builds the row index ahead of the first edit (about 10 ms at 100,000 rows). */
  indexRows(): this {
    this.positionOf(-1);
    return this;
  }

  private positionOf(key: number): number | undefined {
    this.index ??= new Map(this.workspace.rows.map((r, i) => [r.key, i]));
    return this.index.get(key);
  }

  private columnName(column: number): string {
    return this.workspace.headers[column] || `Column ${column + 1}`;
  }

  apply(edits: readonly WorkspaceEdit[]): WorkspaceChanges {
    const w = this.workspace;
    const changes: WorkspaceChanges = {
      cells: [],
      inserted: [],
      deleted: [],
      mappingChanged: false,
      renamed: null,
    };
    for (const edit of edits) {
      switch (edit.op) {
        case 'set': {
          const at = this.positionOf(edit.key);
          const row = at === undefined ? undefined : w.rows[at];
          if (!row) break;
          const from = row.cells[edit.column] ?? '';
          while (row.cells.length <= edit.column) row.cells.push('');
          row.cells[edit.column] = edit.value;
          changes.cells.push({
            key: row.key,
            row: row.rowNumber,
            column: this.columnName(edit.column),
            from,
            to: edit.value,
          });
          break;
        }
        case 'insert':
          w.rows.splice(Math.min(edit.index, w.rows.length), 0, { ...edit.row, cells: [...edit.row.cells] });
          w.nextKey = Math.max(w.nextKey, edit.row.key + 1);
          this.index = null;
          changes.inserted.push({ key: edit.row.key, row: edit.row.rowNumber, cells: [...edit.row.cells] });
          break;
        case 'delete': {
          const at = this.positionOf(edit.key);
          if (at === undefined) break;
          const [gone] = w.rows.splice(at, 1);
          this.index = null;
          if (gone) changes.deleted.push({ key: gone.key, row: gone.rowNumber, cells: gone.cells });
          break;
        }
        case 'mapping':
          w.mapping = edit.mapping;
          changes.mappingChanged = true;
          break;
        case 'rename':
          changes.renamed = { from: changes.renamed?.from ?? w.name, to: edit.name };
          w.name = edit.name;
          break;
      }
    }
    return changes;
  }
}
