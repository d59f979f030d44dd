/** The former name of ledgerShapes.ts, kept until the last importers (upload/, reconcile/, team/) move over. */
export * from './ledgerShapes';
