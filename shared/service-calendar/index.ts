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
  maintenanceUntilWords,
  sandboxStaffedHoursWords,
  REFRESH_HELD_WORDS,
  UPLOAD_HELD_WORDS,
  uploadBeforeMaintenanceWords,
  SANDBOX_UNSTAFFED_WORDS,
  type TimeWords,
} from './words';
export {
  DOCUMENTED_RELEASE_DATES,
  MAINTENANCE_CODE,
  endOfMountainDay,
  expectedMaintenance,
  holdDelayMs,
  maintenanceBeforeUploadDone,
  UPLOAD_MAY_RUN_HOURS,
  maintenanceHold,
  type FailedAnswer,
  type MaintenanceHold,
} from './hold';
