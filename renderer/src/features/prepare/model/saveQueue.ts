import type { WorkspaceEdit } from '../../../../../shared/contract';
import type { Result } from '../../../../../shared/result';

export interface SaveState {
  status: 'saved' | 'saving' | 'failed';
  message?: string;
}

/**
 * A workspace's edits sent to main one batch at a time, in order, each on the version the last one
 * left. "Saved" is said only once every edit made so far has been acknowledged (journaled durably
 * by main): an edit still waiting behind another keeps it at "saving". After a refusal nothing more
 * is sent, so what main holds is always the edits up to a point, never a set with a hole in it.
 */
export class SaveQueue {
  private tail: Promise<void> = Promise.resolve();
  private unsaved = 0;
  private failure: string | null = null;

  constructor(
    private version: number,
    private readonly send: (
      baseVersion: number,
      edits: WorkspaceEdit[],
    ) => Promise<Result<{ version: number }>>,
    private readonly onState: (state: SaveState) => void,
    /** Waited for before each batch is sent (the next frame, so sending is not the frame's work). */
    private readonly beforeSend: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Queues the edits; the state becomes "saving" at once. Resolves once they are answered. */
  push(edits: WorkspaceEdit[]): Promise<void> {
    if (this.failure !== null) return this.tail;
    // Said once, as the first unsaved edit is made: not again for each edit while saving.
    if (this.unsaved++ === 0) this.onState({ status: 'saving' });
    this.tail = this.tail.then(async () => {
      await this.beforeSend();
      if (this.failure !== null) {
        this.unsaved--;
        return;
      }
      const result = await this.send(this.version, edits).catch(
        (e: unknown): Result<{ version: number }> => ({
          ok: false,
          error: { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) },
        }),
      );
      this.unsaved--;
      if (result.ok) {
        this.version = result.value.version;
        if (this.unsaved === 0 && this.failure === null) this.onState({ status: 'saved' });
      } else {
        // A lost edit is not made good by later ones: the state stays failed.
        this.failure = result.error.message;
        this.onState({ status: 'failed', message: result.error.message });
      }
    });
    return this.tail;
  }

  /** Whether every edit pushed has been acknowledged. */
  get settled(): boolean {
    return this.unsaved === 0;
  }

  /**
   * Waits until every edit made so far has been answered: true when all were saved, false when one
   * was refused (main then holds the edits before it only). For anything that reads the workspace
   * from main's disk (upload, the bulk file export).
   */
  async whenSaved(): Promise<boolean> {
    // Edits made while waiting are waited for too.
    for (let tail = this.tail; ; tail = this.tail) {
      await tail;
      if (tail === this.tail) return this.failure === null;
    }
  }
}
