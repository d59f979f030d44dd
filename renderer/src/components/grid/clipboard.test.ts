import { describe, expect, it } from 'vitest';
import { fromTsv, toTsv } from './clipboard';

describe('clipboard blocks', () => {
  it.each([
    [
      'a\tb\r\nc\td\r\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['single', [['single']]],
    ['a\t\tc', [['a', '', 'c']]],
    [
      '"x\ty"\t"say ""hi"""\n"multi\nline"\tz',
      [
        ['x\ty', 'say "hi"'],
        ['multi\nline', 'z'],
      ],
    ],
    [
      '\t\n\t',
      [
        ['', ''],
        ['', ''],
      ],
    ],
  ])('reads %j', (text, expected) => {
    expect(fromTsv(text)).toEqual(expected);
  });

  it('round-trips awkward cells', () => {
    const block = [
      ['00123', 'tab\there', 'quote "q"'],
      ['line\nbreak', '', '=SUM(A1)'],
    ];
    expect(fromTsv(toTsv(block))).toEqual(block);
  });
});
