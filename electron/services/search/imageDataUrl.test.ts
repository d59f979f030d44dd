import { describe, expect, it } from 'vitest';
import { programImageUrl } from './imageDataUrl';

describe('programImageUrl', () => {
  it.each<[string, string, string | null]>([
    ['https://giving.example.org', '/images/o/1.svg', 'https://giving.example.org/images/o/1.svg'],
    ['http://127.0.0.1:4000/program', '/images/o/1.svg', 'http://127.0.0.1:4000/program/images/o/1.svg'],
    ['https://giving.example.org', '//evil.example/x.png', null],
    ['https://giving.example.org', 'https://evil.example/x.png', null],
    ['https://giving.example.org', 'images/x.png', null],
    ['https://giving.example.org', '/\\evil.example/x.png', null],
    ['https://giving.example.org', '@evil.example/x.png', null],
    ['', '/images/x.png', null],
    ['http://127.0.0.1:4000/program', '/../oauth2/token', null],
    ['http://127.0.0.1:4000/program', '/%2e%2e/oauth2/token', null],
  ])('%s + %s', (program, path, expected) => {
    expect(programImageUrl(program, path)).toBe(expected);
  });
});
