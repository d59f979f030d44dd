import { ExpandsTooFarError } from '../errors';
import type { ReadLimits } from '../limits';
import { javaScriptInflater } from './inflate';
import { inflateEntry, ZipArchive } from './zipArchive';

/**
 * Inflates every part of a zip (ods, or an xlsx the fast reader declines), keeping none of the
 * output, to refuse a file that would inflate past the limits before SheetJS reads it: SheetJS
 * inflates each part whole, with no limit. Each part counts against the limit for parts read whole,
 * as SheetJS reads each one whole as text. A zip this cannot read is left for SheetJS to judge.
 */
export async function checkZipInflation(bytes: Uint8Array, limits: Readonly<ReadLimits>): Promise<void> {
  let archive: ZipArchive;
  try {
    archive = new ZipArchive(bytes, limits);
  } catch (error) {
    if (error instanceof ExpandsTooFarError) throw error;
    return;
  }
  for (const entry of archive.allEntries()) {
    try {
      await inflateEntry(
        archive,
        entry,
        () => undefined,
        () => undefined,
        javaScriptInflater,
        limits.maxTextPartBytes,
      );
    } catch (error) {
      if (error instanceof ExpandsTooFarError) throw error;
    }
  }
}
