import { useSyncExternalStore } from 'react';

/*
 * One polite live region for the whole app: a feature says what happened (an upload's outcome, an
 * edit's result, a count that changed) by calling `announce`, and the shell's <Announcer> speaks it.
 * One region, so a message is spoken once, and a message said again within a moment is not repeated.
 */

/** A message the same as the one before, within this time, is the same news: not spoken again. */
const REPEAT_WINDOW_MS = 1500;

interface Spoken {
  text: string;
  at: number;
  seq: number;
}

let current: Spoken = { text: '', at: 0, seq: 0 };
const listeners = new Set<() => void>();

/** Says what happened, politely (after what the screen reader is saying now). */
export function announce(text: string): void {
  const trimmed = text.trim();
  if (!trimmed) return;
  const now = Date.now();
  if (trimmed === current.text && now - current.at < REPEAT_WINDOW_MS) return;
  current = { text: trimmed, at: now, seq: current.seq + 1 };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The live region, rendered once by the shell. Each message is a new node (keyed by its number), so
 * the same words said again later are an addition the screen reader speaks again.
 */
export function Announcer() {
  const spoken = useSyncExternalStore(subscribe, () => current);
  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className="visually-hidden"
      data-testid="announcer"
    >
      {spoken.text && <span key={spoken.seq}>{spoken.text}</span>}
    </div>
  );
}
