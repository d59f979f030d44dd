/**
 * The spec writes the donation page as `{program_url}/<locale>/campaigns/donate/<id>` without saying
 * what a locale looks like. The app sends the browser's language in the usual BCP 47 casing, language
 * and region only (`en-US`, `pt-BR`, `de`; a script subtag is dropped: `zh-Hant-TW` → `zh-TW`), which
 * is also what the Offline sandbox's program pages accept; anything unreadable becomes `en-US`.
 */
export function pageLocale(language: string | undefined): string {
  const parts = (language ?? '').trim().replace(/_/g, '-').split('-');
  const lang = (parts[0] ?? '').toLowerCase();
  if (!/^[a-z]{2}$/.test(lang)) return 'en-US';
  const region = parts.slice(1).find((p) => /^[a-z]{2}$/i.test(p));
  return region ? `${lang}-${region.toUpperCase()}` : lang;
}

export function donationPageUrl(programUrl: string, locale: string, id: number): string {
  return `${programUrl.replace(/\/+$/, '')}/${encodeURIComponent(locale)}/campaigns/donate/${id}`;
}

/** `lat,long` typed by a person (spaces allowed); null when it is not two numbers in range. */
export function parseNear(text: string): { latitude: number; longitude: number } | null {
  const match = /^\s*([+-]?\d+(?:\.\d+)?)\s*[,;]\s*([+-]?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return null;
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

export const RECIPIENT_KEY = 'donation-desk.recipient';

/** What "Use as recipient" leaves for the single-donation form and the grid to pick up. */
export interface ChosenRecipient {
  recipientId: string;
  label: string;
  chosenAt: string;
}
