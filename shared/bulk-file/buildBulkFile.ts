import type { BulkFile, BulkFileEntry, DonationAttributes } from '../donation';

/** One element of a bulk file's `data`. */
export function bulkEntry(attributes: DonationAttributes): BulkFileEntry {
  return { type: 'donations', attributes };
}

/** The bulk file object: `{data: [{type: 'donations', attributes}, …]}`, nothing else at the top. */
export function buildBulkFile(donations: Iterable<DonationAttributes>): BulkFile {
  const data: BulkFileEntry[] = [];
  for (const attributes of donations) data.push(bulkEntry(attributes));
  return { data };
}
