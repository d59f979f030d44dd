import { describe, expect, it } from 'vitest';
import {
  checkAnnouncedDates,
  maintenanceAt,
  maintenanceWindowOn,
  maintenanceWithin,
  nextMaintenance,
  sandboxStaffed,
} from './maintenance';
import { instantOfWallTime, wallTimeIn } from './zonedTime';

const at = (iso: string) => new Date(iso);

describe('maintenance windows', () => {
  it('run Saturday 18:00 to 24:00 Mountain Time, standard time in winter', () => {
    const w = maintenanceWindowOn('2026-12-05')!;
    expect(w.start.toISOString()).toBe('2026-12-06T01:00:00.000Z');
    expect(w.end.toISOString()).toBe('2026-12-06T07:00:00.000Z');
  });

  it('follow daylight saving in summer (an hour earlier in UTC), from the platform time zone data', () => {
    const w = maintenanceWindowOn('2026-07-11')!;
    expect(w.start.toISOString()).toBe('2026-07-12T00:00:00.000Z');
    expect(w.end.toISOString()).toBe('2026-07-12T06:00:00.000Z');
  });

  it('are right on the Saturdays before the clocks change', () => {
    // Daylight saving starts on Sunday 8 March 2026 and ends on Sunday 1 November 2026 at 02:00.
    expect(maintenanceWindowOn('2026-03-07')!.end.toISOString()).toBe('2026-03-08T07:00:00.000Z');
    expect(maintenanceWindowOn('2026-10-31')!.start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(maintenanceWindowOn('2026-10-31')!.end.toISOString()).toBe('2026-11-01T06:00:00.000Z');
  });

  it('exist only on Saturdays', () => {
    expect(maintenanceWindowOn('2026-12-06')).toBeNull();
    expect(maintenanceWindowOn('2026-02-30')).toBeNull();
  });

  it('are in force from their start to their end, not a minute outside', () => {
    const dates = ['2026-12-05'];
    expect(maintenanceAt(at('2026-12-06T00:59:00Z'), dates)).toBeNull();
    expect(maintenanceAt(at('2026-12-06T01:00:00Z'), dates)?.date).toBe('2026-12-05');
    expect(maintenanceAt(at('2026-12-06T06:59:59Z'), dates)?.date).toBe('2026-12-05');
    expect(maintenanceAt(at('2026-12-06T07:00:00Z'), dates)).toBeNull();
  });

  it('take the next announced date, or guess five weeks on when all are past', () => {
    const dates = ['2026-10-24', '2026-12-05'];
    expect(nextMaintenance(at('2026-11-26T12:00:00Z'), dates)).toMatchObject({
      date: '2026-12-05',
      estimated: false,
    });
    expect(nextMaintenance(at('2026-12-07T12:00:00Z'), dates)).toMatchObject({
      date: '2027-01-09',
      estimated: true,
    });
    expect(nextMaintenance(at('2027-03-01T12:00:00Z'), dates)).toMatchObject({ date: '2027-03-20' });
    expect(nextMaintenance(at('2026-11-26T12:00:00Z'), [])).toBeNull();
  });

  it('warn of a window that starts within the hours an upload may take', () => {
    const dates = ['2026-12-05'];
    // The window starts at 01:00 UTC on 6 December: 24 hours before that is the last quiet moment.
    expect(maintenanceWithin(at('2026-12-05T00:59:59Z'), 24, dates)).toBeNull();
    expect(maintenanceWithin(at('2026-12-05T01:00:00Z'), 24, dates)?.date).toBe('2026-12-05');
    expect(maintenanceWithin(at('2026-12-06T03:00:00Z'), 24, dates)?.date).toBe('2026-12-05');
  });
});

describe('announced dates', () => {
  it('keeps real Saturdays in order, once each, and says what is wrong with the rest', () => {
    expect(
      checkAnnouncedDates(['2026-12-05, 2026-10-24', ' 2026-12-05 ', '2026-12-06', '5/12/2026']),
    ).toEqual({
      dates: ['2026-10-24', '2026-12-05'],
      problems: [
        "2026-12-06 is not a Saturday: the service's maintenance is always on a Saturday.",
        '"5/12/2026" is not a date: write it as YYYY-MM-DD, for example 2026-12-05.',
      ],
    });
  });
});

describe('the sandbox staffed hours', () => {
  it('are 9:00 to 17:00 Mountain Time on weekdays', () => {
    expect(sandboxStaffed(at('2026-11-26T16:00:00Z'))).toBe(true); // Thursday 09:00 MST
    expect(sandboxStaffed(at('2026-11-26T15:59:00Z'))).toBe(false); // 08:59
    expect(sandboxStaffed(at('2026-11-27T00:00:00Z'))).toBe(false); // Thursday 17:00
    expect(sandboxStaffed(at('2026-11-28T18:00:00Z'))).toBe(false); // Saturday 11:00
    expect(sandboxStaffed(at('2026-07-13T15:00:00Z'))).toBe(true); // Monday 09:00 MDT
  });
});

describe('wall time in a zone', () => {
  it('takes the first of a time that happens twice and steps over one that never happens', () => {
    expect(instantOfWallTime({ year: 2026, month: 11, day: 1 }, 1, 30, 'America/Denver').toISOString()).toBe(
      '2026-11-01T07:30:00.000Z',
    );
    const skipped = instantOfWallTime({ year: 2026, month: 3, day: 8 }, 2, 30, 'America/Denver');
    expect(skipped.toISOString()).toBe('2026-03-08T09:30:00.000Z');
    expect(wallTimeIn(skipped, 'America/Denver')).toMatchObject({ hour: 3, minute: 30 });
  });
});
