import type { WorkspaceEdit } from '../../../../../shared/contract';
import type { Result } from '../../../../../shared/result';

export interface SaveState {
  status: 'saved' | 'saving' | 'failed';
  message?: string;
}

/**
 * A workspace's edits sent to main one batch at a time, in order, each on the version the last one
 * left. "Saved" is said only once every edit made so far has been acknowledged (journaled durably
 * by main): an edit still waiting behind another keeps it at "saving".
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
    // Said once, as the first unsaved edit is made: not again for each edit while saving.
    if (this.unsaved++ === 0 && this.failure === null) this.onState({ status: 'saving' });
    this.tail = this.tail.then(async () => {
      await this.beforeSend();
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
}
