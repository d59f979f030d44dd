import { describe, expect, it } from 'vitest';
import type { EnvironmentInfo } from '../../../shared/contract';
import { BADGE_BACKGROUND, environmentLabel, environmentTooltip } from './EnvironmentBadge';

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

  it('says the Sandbox is not staffed outside 9:00–17:00 Mountain Time on weekdays, with the hours in the person’s time', () => {
    const sandbox = { id: 'sandbox', label: 'Sandbox' } as EnvironmentInfo;
    const thursdayMorning = new Date('2026-11-26T16:30:00Z'); // 09:30 Mountain Time
    const thursdayEvening = new Date('2026-11-27T01:00:00Z'); // 18:00 Mountain Time
    const saturday = new Date('2026-11-28T18:00:00Z'); // 11:00 Mountain Time
    expect(environmentLabel(sandbox, thursdayMorning)).toBe('Sandbox');
    expect(environmentLabel(sandbox, thursdayEvening)).toBe('Sandbox · not staffed now');
    expect(environmentLabel(sandbox, saturday)).toBe('Sandbox · not staffed now');
    const tooltip = environmentTooltip(sandbox, thursdayEvening, {
      locale: 'en-GB',
      timeZone: 'Europe/Berlin',
    });
    expect(tooltip).toContain('Not staffed now');
    expect(tooltip).toContain('(17:00–01:00 your time)');
    // The Offline sandbox on this computer has no staff to speak of.
    const offline = { id: 'offline', label: 'Offline sandbox' } as EnvironmentInfo;
    expect(environmentLabel(offline, thursdayEvening)).toBe('Offline sandbox');
  });
});
