/**
 * Header text normalised for template matching: a saved template applies to a file whose headers
 * differ only in case, spacing or Unicode form ("Gift  Amount " = "gift amount").
 */
export function headerKey(header: string): string {
  return header.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Lower-case words of a header with accents, punctuation and symbols removed, for fuzzy matching. */
export function headerWords(header: string): string[] {
  // "FirstName", "donorEmail": split camel case before lower-casing loses it.
  const plain = splitCamelCase(header)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return plain === '' ? [] : plain.split(' ');
}

/** Splits camelCase and PascalCase ("DonorEmail" → "Donor Email") before headerWords lower-cases. */
export function splitCamelCase(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
}
