/** Column mapping: spreadsheet headers → donation attributes, templates, and row → donation. */
export {
  FIELD_TARGETS,
  TARGET_LABELS,
  isFieldTarget,
  isMappingTarget,
  metadataKeyOf,
  targetField,
  targetLabel,
  type FieldTarget,
  type MappingTarget,
  type MetadataTarget,
} from './targets';
/** The template JSON format (import/export, CLI --mapping) and its parser. */
export {
  mappingTargetSchema,
  mappingTemplateSchema,
  parseMappingTemplate,
  type MappingTemplate,
  type MappingTemplateInput,
} from './template';
/** Auto-match headers (and optionally sample values) to targets with a confidence. */
export {
  AUTO_MATCH_THRESHOLD,
  currencyHintOf,
  diceSimilarity,
  scoreHeader,
  suggestMapping,
  type ColumnSuggestion,
  type CurrencyHint,
  type MappingSuggestion,
  type SuggestOptions,
  type TargetCandidate,
} from './suggestMapping';
/** Header → valid metadata key ("Employee ID#" → "Employee ID"). */
export { toMetadataKey, uniqueMetadataKey } from './toMetadataKey';
/** Header normalisation used for template matching. */
export { headerKey, headerWords } from './headers';
/** Pick the saved template that fits a file's headers. */
export { findTemplateForHeaders, type TemplateMatch } from './templateMatch';
/** Resolve a template against a file once; reports mapping-level problems. */
export {
  compileMapping,
  type CompiledColumn,
  type CompiledMapping,
  type MappingProblem,
} from './compileMapping';
/** One row → donation + issues placed on their source cells. */
export {
  applyMapping,
  type ApplyOptions,
  type DonationDraft,
  type MappedIssue,
  type MappedRow,
} from './applyMapping';
/** The workspace/row reference metadata pair. */
export {
  DEFAULT_REFERENCE_KEY,
  REPLACES_KEY,
  SINGLE_KEY,
  makeReference,
  parseReference,
  type ReferencePair,
} from './reference';
/** One donation typed into a form, checked by the same rules as a row. */
export { checkSingleDonation, type SingleDonationForm, type SingleDonationCheck } from './singleDonation';
/** A cell as text, the way text attributes read it. */
export { cellText } from './cellText';
