import { useEffect, useRef } from 'react';

/** How long a new area may take to show its heading (its code loads on first use). */
const WAIT_FOR_HEADING_MS = 5000;

/**
 * After each move to another area, focus goes to the new view's heading, so a screen reader says
 * where the person is and Tab continues from the top of the view, unless the view has already put
 * focus where the person is about to work (the grid, a field). Not on the first load of the app:
 * the skip link comes first then.
 */
export function useFocusOnArrival(area: string, main: () => HTMLElement | null): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const startedWith = document.activeElement;
    const deadline = Date.now() + WAIT_FOR_HEADING_MS;
    let frame = 0;
    const tryFocus = () => {
      const root = main();
      const active = document.activeElement;
      // The view moved focus itself (into its own content): leave it there.
      if (root && active && active !== root && active !== startedWith && root.contains(active)) return;
      // The first heading shown: while a view's code loads, the one before it stays in the page,
      // hidden, until the new one replaces it.
      const heading = [...(root?.querySelectorAll<HTMLElement>('h1') ?? [])].find(
        (h) => h.getClientRects().length > 0,
      );
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
        return;
      }
      if (Date.now() < deadline) frame = requestAnimationFrame(tryFocus);
    };
    frame = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(frame);
  }, [area, main]);
}
