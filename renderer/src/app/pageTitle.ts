import { useEffect, useSyncExternalStore } from 'react';

/*
 * The window's title names where the person is: "Review — sample-donations (November) — Donation
 * Desk". The shell gives the area; a screen that has something open (a workspace, an upload) adds
 * its name while it is shown.
 */

let detail: string | null = null;
const listeners = new Set<() => void>();

function setDetail(next: string | null): void {
  if (next === detail) return;
  detail = next;
  for (const listener of listeners) listener();
}

/** Names what this screen has open in the window's title while the screen is shown. */
export function usePageTitleDetail(name: string | null | undefined): void {
  useEffect(() => {
    setDetail(name ?? null);
    return () => setDetail(null);
  }, [name]);
}

/** What the open screen named, if anything. */
export function usePageTitleDetailValue(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => detail,
  );
}

/** The window's title from its parts, most specific first. */
export function pageTitle(area: string, open: string | null): string {
  return [area, open, 'Donation Desk'].filter(Boolean).join(' — ');
}
