/** Bulk files out, error files back: JSON text/objects only (gzip is main's job). */
export { buildBulkFile, bulkEntry } from './buildBulkFile';
/** Chunked JSON writer for 100k+ donations, and splitting by rows/bytes. */
export {
  planBulkFiles,
  serializeBulkFile,
  utf8Length,
  type BulkFilePart,
  type SerializeOptions,
} from './serializeBulkFile';
/** `source.pointer` in any form → {index?, field}. */
export { normalisePointer, type PointerTarget } from './pointer';
/** Parse an error file in both forms (donation-errors.gz, donations.gz). */
export {
  normaliseError,
  parseErrorFile,
  type ErrorFileDonation,
  type ErrorFileHint,
  type NormalisedError,
  type ParsedErrorFile,
} from './errorFile';
/** Tie returned donations to uploaded ones: reference pair, then content, duplicates in order. */
export {
  matchDonations,
  matchKey,
  type DonationMatch,
  type MatchMethod,
  type MatchOptions,
} from './matchDonations';
/** zod shapes of the service's responses (donation, donation list, bulk intent, errors). */
export * from './serviceShapes';
/** The bulk file's own zod shape lives with the donation rules; re-exported here for convenience. */
export { bulkFileEntrySchema, bulkFileSchema, type BulkFile, type BulkFileEntry } from '../donation';
