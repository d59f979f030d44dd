import { describe, expect, it } from 'vitest';
import { donationPageUrl, pageLocale, parseNear } from './donationPage';

describe('donation page address', () => {
  it.each<[string | undefined, string]>([
    ['en-US', 'en-US'],
    ['en-us', 'en-US'],
    ['de', 'de'],
    ['pt_BR', 'pt-BR'],
    ['zh-Hant-TW', 'zh-TW'],
    ['es-419', 'es'],
    ['', 'en-US'],
    [undefined, 'en-US'],
    ['../../evil', 'en-US'],
  ])('locale of %s is %s', (language, locale) => {
    expect(pageLocale(language)).toBe(locale);
  });

  it('joins the program address, locale and id', () => {
    expect(donationPageUrl('https://giving.example.org/', 'en-US', 100042)).toBe(
      'https://giving.example.org/en-US/campaigns/donate/100042',
    );
  });

  it.each<[string, { latitude: number; longitude: number } | null]>([
    ['-33.8688,151.2093', { latitude: -33.8688, longitude: 151.2093 }],
    [' 48.85 , 2.35 ', { latitude: 48.85, longitude: 2.35 }],
    ['91,0', null],
    ['0,181', null],
    ['Sydney', null],
    ['1,2,3', null],
  ])('near %j', (text, value) => {
    expect(parseNear(text)).toEqual(value);
  });
});
