export * from './channels';
export * from './sandboxChannels';
export * from './events';
export * from './dispatch';
export * from './environment';
export type { DeskApi } from './api';
export * from './workspace';
export * from './packedRows';
export * from './auditChannels';
