import { count, plural } from '../../../../../shared/i18n';

/** What the notice says once the bulk file is exported, rows left out for their errors included. */
export function bulkFileExportedWords(donations: number, skipped: number): string {
  return `Bulk file with ${count(donations, 'donation')} exported${
    skipped
      ? `; ${count(skipped, 'row')} with errors ${plural(skipped, { one: 'was', other: 'were' })} left out`
      : ''
  }.`;
}
