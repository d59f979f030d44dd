import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import { desk } from '../../app/deskClient';
import {
  maintenanceBeforeUploadDone,
  maintenanceNowWords,
  maintenanceUntilWords,
  uploadBeforeMaintenanceWords,
  UPLOAD_HELD_WORDS,
} from '../../../../shared/service-calendar';

/** The service's calendar as main knows it: the announced dates and the hold in force (until when). */
function useServiceCalendar(): { announcedDates: string[]; until: string | null } | null {
  const [calendar, setCalendar] = useState<{ announcedDates: string[]; until: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    void desk['calendar.get']({}).then((r) => {
      if (live && r.ok)
        setCalendar({ announcedDates: r.value.announcedDates, until: r.value.maintenance?.until ?? null });
    });
    const off = desk.on('service.maintenance', ({ until }) =>
      setCalendar((c) => ({ announcedDates: c?.announcedDates ?? [], until })),
    );
    return () => {
      live = false;
      off();
    };
  }, []);
  return calendar;
}

/**
 * In the upload dialog: the service's maintenance starts before an upload sent now may be validated
 * and processed (up to 24 hours), or is on now. A warning, not a stop: the person may still send.
 */
export function MaintenanceAheadWarning() {
  const calendar = useServiceCalendar();
  if (!calendar) return null;
  const now = new Date();
  const window = maintenanceBeforeUploadDone(now, calendar.announcedDates);
  if (!window && !calendar.until) return null;
  const text =
    window && window.start > now
      ? uploadBeforeMaintenanceWords(window, now)
      : `${window ? maintenanceNowWords(window, now) : maintenanceUntilWords(new Date(calendar.until as string), now)} You may still send: the upload is kept and goes to the service when it is back.`;
  return (
    <Alert severity="warning" data-testid="maintenance-ahead">
      {text}
    </Alert>
  );
}

/** On Uploads: the service is in its scheduled maintenance; following waits for its end. */
export function MaintenanceNotice() {
  const calendar = useServiceCalendar();
  if (!calendar?.until) return null;
  const now = new Date();
  return (
    <Alert severity="info" role="status" data-testid="maintenance-notice">
      {maintenanceUntilWords(new Date(calendar.until), now)} {UPLOAD_HELD_WORDS}
    </Alert>
  );
}
