import { useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';

/** The controls of a toolbar that can take focus now (enabled and shown), in order. */
function controlsOf(toolbar: HTMLElement | null): HTMLElement[] {
  if (!toolbar) return [];
  return [...toolbar.querySelectorAll<HTMLElement>('button, input, a[href]')].filter(
    (el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0,
  );
}

/** Where the arrow keys move within a row of controls, going round; null for other keys. */
export function rovingTarget(key: string, index: number, length: number): number | null {
  if (length === 0) return null;
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % length;
    case 'ArrowLeft':
      return (index - 1 + length) % length;
    case 'Home':
      return 0;
    case 'End':
      return length - 1;
    default:
      return null;
  }
}

/** Gives the Tab stop to the control at `index` (kept within the controls there are now). */
function giveTabStop(controls: HTMLElement[], index: number): number {
  const at = Math.max(0, Math.min(index, controls.length - 1));
  controls.forEach((el, i) => {
    el.tabIndex = i === at ? 0 : -1;
  });
  return at;
}

/**
 * A toolbar as the ARIA pattern has it: one Tab stop (the control last used), and the arrow keys,
 * Home and End move between its controls. Returns the handlers for the toolbar's element.
 */
export function useRovingToolbar(toolbar: RefObject<HTMLElement | null>) {
  const current = useRef(0);
  // After every render: a control that became enabled or disabled gets its own tabindex back from MUI.
  useLayoutEffect(() => {
    const controls = controlsOf(toolbar.current);
    if (controls.length) current.current = giveTabStop(controls, current.current);
  });

  function onFocus(event: FocusEvent<HTMLElement>) {
    const controls = controlsOf(event.currentTarget);
    const index = controls.indexOf(event.target as HTMLElement);
    if (index >= 0) current.current = giveTabStop(controls, index);
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const controls = controlsOf(event.currentTarget);
    const from = controls.indexOf(document.activeElement as HTMLElement);
    if (from < 0) return;
    const to = rovingTarget(event.key, from, controls.length);
    if (to === null) return;
    event.preventDefault();
    current.current = giveTabStop(controls, to);
    controls[to]?.focus();
  }
  return { onFocus, onKeyDown };
}
