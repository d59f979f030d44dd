import type { Page } from '@playwright/test';

/**
 * Starts recording what the page's live regions would make a screen reader say: the text of an
 * alert, a status or an aria-live region each time it changes (or an alert appears). Read back with
 * `spoken`. A region emptied is not speech.
 */
export async function recordSpeech(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log: string[] = [];
    const last = new WeakMap<Element, string>();
    (window as unknown as { spoken: string[] }).spoken = log;
    const live = '[role=alert],[role=status],[role=log],[aria-live=polite],[aria-live=assertive]';
    const regionOf = (node: Node | null): Element | null => {
      const el = node instanceof Element ? node : (node?.parentElement ?? null);
      const region = el?.closest(live) ?? null;
      // aria-live="off" inside a region, or a region switched off, says nothing.
      return region && region.getAttribute('aria-live') !== 'off' ? region : null;
    };
    const note = (region: Element) => {
      const text = (region.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text && last.get(region) !== text) log.push(text);
      last.set(region, text);
    };
    new MutationObserver((mutations) => {
      const touched = new Set<Element>();
      for (const m of mutations) {
        const region = regionOf(m.target);
        if (region) touched.add(region);
        for (const added of Array.from(m.addedNodes)) {
          if (!(added instanceof Element)) continue;
          // An alert that appears is spoken; a status that appears with its text usually is not,
          // but counting it here keeps the test on the safe side (more speech, not less).
          if (added.matches(live)) touched.add(added);
          added.querySelectorAll(live).forEach((r) => touched.add(r));
        }
      }
      touched.forEach(note);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** Everything the live regions said since `recordSpeech`. */
export async function spoken(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { spoken: string[] }).spoken);
}

/** How many times something matching `pattern` was said. */
export async function timesSaid(page: Page, pattern: RegExp): Promise<number> {
  return (await spoken(page)).filter((text) => pattern.test(text)).length;
}
