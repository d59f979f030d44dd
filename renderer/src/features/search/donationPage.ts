export { donationPageUrl, pageLocale } from '../../../../shared/contract/searchChannels';

/** `lat,long` typed by a person (spaces allowed); null when it is not two numbers in range. */
export function parseNear(text: string): { latitude: number; longitude: number } | null {
  const match = /^\s*([+-]?\d+(?:\.\d+)?)\s*[,;]\s*([+-]?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return null;
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}
