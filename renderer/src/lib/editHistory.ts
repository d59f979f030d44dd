/** A change as the person made it: one or many cells, undone and redone as one step. */
export interface CellChange {
  key: number;
  column: number;
  before: string;
  after: string;
}

export type HistoryStep =
  | { kind: 'cells'; label: string; changes: CellChange[] }
  | {
      kind: 'insert';
      label: string;
      index: number;
      row: { key: number; rowNumber: number | null; cells: string[] };
    }
  | {
      kind: 'delete';
      label: string;
      rows: { index: number; row: { key: number; rowNumber: number | null; cells: string[] } }[];
    };

const LIMIT = 500;

/** Undo and redo stacks. Every step, bulk fixes included, is undone whole. */
export class EditHistory {
  private done: HistoryStep[] = [];
  private undone: HistoryStep[] = [];

  record(step: HistoryStep): void {
    this.done.push(step);
    if (this.done.length > LIMIT) this.done.shift();
    this.undone = [];
  }

  undo(): HistoryStep | undefined {
    const step = this.done.pop();
    if (step) this.undone.push(step);
    return step;
  }

  redo(): HistoryStep | undefined {
    const step = this.undone.pop();
    if (step) this.done.push(step);
    return step;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  get undoLabel(): string | undefined {
    return this.done.at(-1)?.label;
  }

  get redoLabel(): string | undefined {
    return this.undone.at(-1)?.label;
  }
}
