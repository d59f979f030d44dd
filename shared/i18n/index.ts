export { count, plural, setMessageLocale, type PluralForms } from './plural';
export { bulkStatusWord, codeWord, donationStatusWord, withCode } from './serviceWords';
