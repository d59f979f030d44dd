import { Inflate } from 'pako';
import { expandsTooFar } from '../errors';
import type { ReadLimits } from '../limits';
import { corruptZip } from './zipErrors';

const INPUT_SLICE = 256 * 1024;

/**
 * Inflates raw deflate data piece by piece, handing out the output in order. Between input pieces it
 * awaits `between`, which reports progress, yields, or throws to cancel. An error thrown by
 * `onChunk` stops the inflating and passes through as it is.
 */
export type RawInflater = (
  compressed: Uint8Array,
  onChunk: (chunk: Uint8Array) => void,
  between: (done: number, total: number) => Promise<void> | void,
) => Promise<void>;

/**
 * Counts what the parts of one file inflate to, and refuses (SpreadsheetReadError) as soon as a part
 * or the whole passes its limit: the output is counted as it comes, so a zip bomb is stopped after
 * at most one chunk past the limit, whatever sizes its headers claim.
 */
export class InflateBudget {
  private total = 0;

  constructor(readonly limits: Readonly<ReadLimits>) {}

  /** A counter for one part that may inflate to at most `partLimit` bytes. */
  part(partLimit: number): (bytes: number) => void {
    let inPart = 0;
    return (bytes) => {
      inPart += bytes;
      this.total += bytes;
      if (inPart > partLimit) throw expandsTooFar(partLimit);
      if (this.total > this.limits.maxArchiveBytes) throw expandsTooFar(this.limits.maxArchiveBytes);
    };
  }
}

/** Inflation in JavaScript (pako): the same everywhere, and faster than Node's DecompressionStream. */
export const javaScriptInflater: RawInflater = async (data, onChunk, between) => {
  const total = data.length;
  const inflater = new Inflate({ raw: true, chunkSize: 512 * 1024 });
  inflater.onData = onChunk;
  for (let offset = 0; offset < total || offset === 0; offset += INPUT_SLICE) {
    inflater.push(
      data.subarray(offset, Math.min(total, offset + INPUT_SLICE)),
      offset + INPUT_SLICE >= total,
    );
    if (inflater.err) throw corruptZip();
    await between(Math.min(total, offset + INPUT_SLICE), total);
  }
};

/** Inflates a small part whole, synchronously, counting as it goes (pako hands out fresh chunks). */
export function inflateWhole(data: Uint8Array, count: (bytes: number) => void): Uint8Array {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const inflater = new Inflate({ raw: true, chunkSize: 256 * 1024 });
  inflater.onData = (chunk: Uint8Array) => {
    count(chunk.length);
    chunks.push(chunk);
    length += chunk.length;
  };
  inflater.push(data, true);
  if (inflater.err) throw corruptZip();
  if (chunks.length === 1) return chunks[0]!;
  const whole = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

/**
 * Inflation by the runtime's own zlib through `DecompressionStream('deflate-raw')`. In Chromium this
 * runs natively on the calling thread and is several times faster than pako; in Node the stream goes
 * through the thread pool in 16 KB pieces and is slower, so the CLI keeps the JavaScript inflater.
 */
export const streamInflater: RawInflater = async (data, onChunk, between) => {
  const total = data.length;
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // Errors of the caller's own (a cancel, a reader that declines the sheet) pass through as they are;
  // any other error comes from the stream and means the data is damaged.
  const own: { error?: unknown } = {};
  const mine = async (work: () => Promise<void> | void): Promise<void> => {
    try {
      await work();
    } catch (error) {
      own.error ??= error;
      throw error;
    }
  };
  const writing = (async () => {
    for (let offset = 0; offset < total; offset += INPUT_SLICE) {
      const end = Math.min(total, offset + INPUT_SLICE);
      await writer.write(data.subarray(offset, end) as Uint8Array<ArrayBuffer>);
      await mine(() => between(end, total));
    }
    await writer.close();
  })();
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      // Called as it is, not through `mine`: one more promise per 16 KB piece adds up.
      try {
        onChunk(value);
      } catch (error) {
        own.error ??= error;
        throw error;
      }
    }
  })();
  try {
    await Promise.all([writing, reading]);
  } catch (error) {
    await Promise.allSettled([writer.abort(error), reader.cancel(error)]);
    if ('error' in own) throw own.error;
    throw corruptZip();
  }
};
