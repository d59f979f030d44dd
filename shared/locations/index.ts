export * from './targets';
export * from './mapping';
export * from './validate';
export * from './serviceFields';
