/** The former name of serviceShapes.ts, kept until the last importers (upload/, reconcile/) move over. */
export * from './serviceShapes';
