import { checkAnnouncedDates } from '../../../shared/service-calendar';
import { DeskFailure } from '../../../shared/result';
import type { KeyValueStore } from './keyValueStore';

const KEY = 'serviceCalendar.announcedDates';

/** The maintenance dates the service announced, as entered in Settings (Saturdays, YYYY-MM-DD). */
export class AnnouncedMaintenance {
  constructor(private readonly store: KeyValueStore) {}

  dates(): string[] {
    const stored = this.store.get(KEY);
    if (!Array.isArray(stored)) return [];
    return checkAnnouncedDates(stored.filter((d): d is string => typeof d === 'string')).dates;
  }

  /** Replaces the dates; refused (nothing saved) when an entry is not a Saturday written YYYY-MM-DD. */
  save(entries: string[]): string[] {
    const { dates, problems } = checkAnnouncedDates(entries);
    if (problems.length) throw new DeskFailure('INVALID_INPUT', problems.join(' '), { problems });
    this.store.set(KEY, dates);
    return dates;
  }
}
