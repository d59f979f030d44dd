import type { Services } from '../../../shared/contract';
import type { EventBus } from '../core/eventBus';
import type { AnnouncedMaintenance } from '../settings/announcedMaintenance';
import type { Environments } from './environments';

type CalendarHandlers = Pick<Services, 'calendar.get' | 'calendar.save'>;

/**
 * The service's calendar from the app: the announced maintenance dates (Settings) and the hold in
 * force; every change of the hold is told to the screens ('service.maintenance').
 */
export function calendarHandlers(
  announced: AnnouncedMaintenance,
  environments: Environments,
  events: EventBus,
): CalendarHandlers {
  environments.maintenance.onChange((state) =>
    events.emit('service.maintenance', { until: state?.until ?? null }),
  );
  const view = () => {
    const hold = environments.maintenance.current();
    return { announcedDates: announced.dates(), maintenance: hold ? { until: hold.until } : null };
  };
  return {
    'calendar.get': () => view(),
    'calendar.save': ({ dates }) => {
      announced.save(dates);
      return view();
    },
  };
}
