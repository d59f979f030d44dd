export { count, plural, setMessageLocale, type PluralForms } from './plural';
export { bulkStatusWord, codeWord, donationStatusWord, hasCodeWord, withCode } from './serviceWords';
