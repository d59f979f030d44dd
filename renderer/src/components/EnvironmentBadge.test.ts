import { describe, expect, it } from 'vitest';
import { BADGE_BACKGROUND } from './EnvironmentBadge';

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

describe('the environment badge', () => {
  it('reads at 4.5:1 against its white text in every environment (the Sandbox blue did not: 3.85)', () => {
    for (const [environment, colour] of Object.entries(BADGE_BACKGROUND)) {
      expect({ environment, ok: contrastWithWhite(colour) >= 4.5 }).toEqual({ environment, ok: true });
    }
    // The check itself: MUI's info blue, which the badge used for the Sandbox, fails it.
    expect(contrastWithWhite('#0288d1')).toBeLessThan(4.5);
  });
});
