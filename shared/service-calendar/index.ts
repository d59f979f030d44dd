export {
  checkAnnouncedDates,
  maintenanceAt,
  maintenanceWindowOn,
  maintenanceWithin,
  nextMaintenance,
  sandboxStaffed,
  MAINTENANCE_CYCLE_DAYS,
  SERVICE_TIME_ZONE,
  type MaintenanceWindow,
} from './maintenance';
export {
  maintenanceAheadWords,
  maintenanceNowWords,
  uploadBeforeMaintenanceWords,
  SANDBOX_UNSTAFFED_WORDS,
  type TimeWords,
} from './words';
