import { describe, expect, it } from 'vitest';
import { maintenanceWindowOn } from './maintenance';
import { maintenanceAheadWords, maintenanceNowWords, uploadBeforeMaintenanceWords } from './words';

const december = maintenanceWindowOn('2026-12-05')!;

describe('calendar words', () => {
  it("say until when in Mountain Time and in the person's own time", () => {
    const now = new Date('2026-12-06T02:00:00Z');
    expect(maintenanceNowWords(december, now, { locale: 'en-GB', timeZone: 'UTC' })).toBe(
      'The giving service is in scheduled maintenance until 24:00 Mountain Time (07:00 your time).',
    );
    // In Berlin the maintenance ends at 08:00 on the same Sunday.
    expect(maintenanceNowWords(december, now, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toContain(
      '(08:00 your time)',
    );
  });

  it("name the day when the window ends on another day of the person's own calendar", () => {
    const now = new Date('2026-12-06T01:30:00Z');
    // Tokyo: 10:30 on Sunday now, and the window ends at 16:00 the same Sunday.
    expect(maintenanceNowWords(december, now, { locale: 'en-GB', timeZone: 'Asia/Tokyo' })).toContain(
      '(16:00 your time)',
    );
    // UTC−3: 22:30 on Saturday now; the window ends at 04:00 on Sunday, the next day there.
    expect(maintenanceNowWords(december, now, { locale: 'en-GB', timeZone: 'Etc/GMT+3' })).toMatch(
      /\(Sun.*6 Dec.*04:00 your time\)/,
    );
  });

  it('describe a window ahead, and say when it is a guess', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const ahead = maintenanceAheadWords(december, now, { locale: 'en-GB', timeZone: 'UTC' });
    expect(ahead).toMatch(/Sat,? 5 Dec 2026, 18:00–24:00 Mountain Time/);
    // One span in the person's day, the day named once: not "01:00 your time to 07:00".
    expect(ahead).toMatch(/\(Sun,? 6 Dec,? 01:00–07:00 your time\)$/);
    // Where the window crosses the person's midnight, both ends carry their day.
    const newYork = maintenanceAheadWords(december, now, { locale: 'en-GB', timeZone: 'America/New_York' });
    expect(newYork).toMatch(/\(Sat,? 5 Dec,? 20:00 to Sun,? 6 Dec,? 02:00 your time\)$/);
    // In Mountain Time itself the window ends at 24:00 of its Saturday.
    const denver = maintenanceAheadWords(december, now, { locale: 'en-GB', timeZone: 'America/Denver' });
    expect(denver).toMatch(/\(Sat,? 5 Dec,? 18:00–24:00 your time\)$/);
    const guess = maintenanceAheadWords({ ...december, estimated: true }, now, {
      locale: 'en-GB',
      timeZone: 'UTC',
    });
    expect(guess).toContain('a guess, about five weeks after the last known date');
  });

  it('tell before an upload that processing may reach into the window', () => {
    const now = new Date('2026-12-05T12:00:00Z');
    const words = uploadBeforeMaintenanceWords(december, now, { locale: 'en-GB', timeZone: 'UTC' });
    expect(words).toContain('18:00 Mountain Time');
    expect(words).toContain('up to 24 hours');
    expect(words).toContain('safe to send');
  });
});
