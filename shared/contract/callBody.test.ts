import { describe, expect, it } from 'vitest';
import { CallBodyError, decodeCallWithBytes, encodeCallWithBytes } from './callBody';

function join(parts: Uint8Array[]): Uint8Array {
  const body = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return body;
}

describe('calls with byte attachments', () => {
  it('carries bytes as they are, anywhere in the input, and everything else as JSON', () => {
    const texts = new TextEncoder().encode('Zoë 😀');
    const input = {
      name: 'N',
      packedRows: { texts, lengths: new Uint8Array([1, 0, 0, 0]), rowNumbers: [2, null] },
    };
    const parts = encodeCallWithBytes(input);
    expect(parts).not.toBeNull();
    const decoded = decodeCallWithBytes(join(parts ?? [])) as typeof input;
    expect(decoded.name).toBe('N');
    expect(decoded.packedRows.rowNumbers).toEqual([2, null]);
    expect(new TextDecoder().decode(decoded.packedRows.texts)).toBe('Zoë 😀');
    expect([...decoded.packedRows.lengths]).toEqual([1, 0, 0, 0]);
  });

  it('leaves inputs without bytes to plain JSON', () => {
    expect(encodeCallWithBytes({ id: 'x', rows: [['a']] })).toBeNull();
  });

  it.each<[string, Uint8Array]>([
    ['too short', new Uint8Array([1, 0])],
    ['cut short', new Uint8Array([50, 0, 0, 0, 123])],
    ['not JSON', join([new Uint8Array([3, 0, 0, 0]), new TextEncoder().encode('{x}')])],
    [
      'an attachment beyond the end',
      join([new Uint8Array([19, 0, 0, 0]), new TextEncoder().encode('{"a":{"$bytes":[0,9]}}'.slice(0, 19))]),
    ],
  ])('refuses a body %s', (_name, body) => {
    expect(() => decodeCallWithBytes(body)).toThrow(CallBodyError);
  });

  it('refuses a mark that points past the attachments', () => {
    const json = new TextEncoder().encode('{"a":{"$bytes":[2,5]}}');
    const head = new Uint8Array([json.byteLength, 0, 0, 0]);
    expect(() => decodeCallWithBytes(join([head, json, new Uint8Array(4)]))).toThrow(CallBodyError);
    expect(decodeCallWithBytes(join([head, json, new Uint8Array(7)]))).toEqual({ a: new Uint8Array(5) });
  });
});
