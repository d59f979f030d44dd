import { describe, expect, it } from 'vitest';
import { detectNumberStyle } from './detectNumberStyle';

describe('detectNumberStyle', () => {
  it.each([
    [['1,234.56', '25', '10.50'], 'dot-decimal'],
    [['1.234,56', '25', '10,50'], 'comma-decimal'],
    [['1 234,56'], 'comma-decimal'],
    [['12,5'], 'comma-decimal'],
    [['1.234.567'], 'comma-decimal'],
    [['1,234,567'], 'dot-decimal'],
    [['0,125'], 'comma-decimal'],
    [['25,-'], 'comma-decimal'],
    [['1,234', '1.234'], 'dot-decimal'],
    [['1.234', '2.500', '25'], 'comma-decimal'],
    [['1,234', '2,500'], 'dot-decimal'],
    [[25.5, 100, '25'], 'dot-decimal'],
    [[], 'dot-decimal'],
    [['€ 10,00', '€ 12,50', '1.000'], 'comma-decimal'],
    [["1'234.50"], 'dot-decimal'],
  ] as const)('%j → %s', (samples, style) => {
    expect(detectNumberStyle(samples)).toBe(style);
  });
});
