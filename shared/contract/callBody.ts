/**
 * How a call whose input holds bytes (Uint8Array) travels over the local bridge: JSON cannot carry
 * bytes, and base64 or JSON text would cost far more than the bytes themselves at 100,000 rows.
 * Electron IPC needs none of this (it copies bytes as they are).
 *
 * The body is: the JSON text's length in bytes (4, little-endian), the JSON text (UTF-8), then every
 * attachment one after another. In the JSON, each Uint8Array stands as `{"$bytes": [start, length]}`,
 * counted from the first byte after the JSON.
 */
export const CALL_WITH_BYTES_TYPE = 'application/vnd.donation-desk.call+bytes';

const MARK = '$bytes';

/** A call body with its attachments, or null when the input holds no bytes (send it as JSON). */
export function encodeCallWithBytes(input: unknown): Uint8Array[] | null {
  const attachments: Uint8Array[] = [];
  let size = 0;
  const json = JSON.stringify(input ?? {}, (_key, value: unknown) => {
    if (!(value instanceof Uint8Array)) return value;
    attachments.push(value);
    const mark = { [MARK]: [size, value.byteLength] };
    size += value.byteLength;
    return mark;
  });
  if (attachments.length === 0) return null;
  const text = new TextEncoder().encode(json);
  const head = new Uint8Array(4);
  new DataView(head.buffer).setUint32(0, text.byteLength, true);
  return [head, text, ...attachments];
}

export class CallBodyError extends Error {}

/**
 * The input again, each attachment a view of `body` (not a copy). Throws CallBodyError when the
 * body is not one: a length beyond the end, JSON that does not parse, a mark out of bounds.
 */
export function decodeCallWithBytes(body: Uint8Array): unknown {
  if (body.byteLength < 4) throw new CallBodyError('The call body is too short.');
  const jsonLength = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(0, true);
  if (4 + jsonLength > body.byteLength) throw new CallBodyError('The call body is cut short.');
  const bytes = body.subarray(4 + jsonLength);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(4, 4 + jsonLength)));
  } catch {
    throw new CallBodyError('The call body does not hold valid JSON.');
  }
  return restore(parsed, bytes);
}

function isMark(value: object): value is { [MARK]: [number, number] } {
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== MARK) return false;
  const range: unknown = (value as Record<string, unknown>)[MARK];
  return Array.isArray(range) && range.length === 2 && range.every((n) => Number.isSafeInteger(n) && n >= 0);
}

function restore(value: unknown, bytes: Uint8Array): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    // Lists of plain values (row numbers) are passed over without a call per element.
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) value[i] = restore(item, bytes);
    }
    return value;
  }
  if (isMark(value)) {
    const [start, length] = value[MARK];
    if (start + length > bytes.byteLength) throw new CallBodyError('An attachment lies beyond the body.');
    return bytes.subarray(start, start + length);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = restore(record[key], bytes);
  return record;
}
