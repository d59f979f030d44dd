/**
 * ISO 3166-1 alpha-2 officially assigned codes (249). User-assigned codes such as XK are not in the
 * standard and are refused, because the service documents the country as an ISO two-letter code.
 */
// prettier-ignore
const CODES = [
  'AD','AE','AF','AG','AI','AL','AM','AO','AQ','AR','AS','AT','AU','AW','AX','AZ',
  'BA','BB','BD','BE','BF','BG','BH','BI','BJ','BL','BM','BN','BO','BQ','BR','BS','BT','BV','BW','BY','BZ',
  'CA','CC','CD','CF','CG','CH','CI','CK','CL','CM','CN','CO','CR','CU','CV','CW','CX','CY','CZ',
  'DE','DJ','DK','DM','DO','DZ',
  'EC','EE','EG','EH','ER','ES','ET',
  'FI','FJ','FK','FM','FO','FR',
  'GA','GB','GD','GE','GF','GG','GH','GI','GL','GM','GN','GP','GQ','GR','GS','GT','GU','GW','GY',
  'HK','HM','HN','HR','HT','HU',
  'ID','IE','IL','IM','IN','IO','IQ','IR','IS','IT',
  'JE','JM','JO','JP',
  'KE','KG','KH','KI','KM','KN','KP','KR','KW','KY','KZ',
  'LA','LB','LC','LI','LK','LR','LS','LT','LU','LV','LY',
  'MA','MC','MD','ME','MF','MG','MH','MK','ML','MM','MN','MO','MP','MQ','MR','MS','MT','MU','MV','MW','MX','MY','MZ',
  'NA','NC','NE','NF','NG','NI','NL','NO','NP','NR','NU','NZ',
  'OM',
  'PA','PE','PF','PG','PH','PK','PL','PM','PN','PR','PS','PT','PW','PY',
  'QA',
  'RE','RO','RS','RU','RW',
  'SA','SB','SC','SD','SE','SG','SH','SI','SJ','SK','SL','SM','SN','SO','SR','SS','ST','SV','SX','SY','SZ',
  'TC','TD','TF','TG','TH','TJ','TK','TL','TM','TN','TO','TR','TT','TV','TW','TZ',
  'UA','UG','UM','US','UY','UZ',
  'VA','VC','VE','VG','VI','VN','VU',
  'WF','WS',
  'YE','YT',
  'ZA','ZM','ZW',
] as const;

const COUNTRY_SET: ReadonlySet<string> = new Set(CODES);

/** All ISO 3166-1 alpha-2 codes, sorted. */
export const COUNTRY_CODES: readonly string[] = CODES;

/** True for an assigned ISO 3166-1 alpha-2 code in capitals ("US", "DE"). */
export function isCountryCode(code: string): boolean {
  return code.length === 2 && COUNTRY_SET.has(code);
}

// Names and three-letter codes finance sheets commonly carry instead of the two-letter code.
const COMMON_NAMES: Readonly<Record<string, string>> = {
  'UNITED STATES': 'US',
  'UNITED STATES OF AMERICA': 'US',
  USA: 'US',
  'U.S.': 'US',
  'U.S.A.': 'US',
  AMERICA: 'US',
  'UNITED KINGDOM': 'GB',
  UK: 'GB',
  'GREAT BRITAIN': 'GB',
  ENGLAND: 'GB',
  SCOTLAND: 'GB',
  WALES: 'GB',
  GBR: 'GB',
  CANADA: 'CA',
  CAN: 'CA',
  GERMANY: 'DE',
  DEUTSCHLAND: 'DE',
  DEU: 'DE',
  FRANCE: 'FR',
  FRA: 'FR',
  SPAIN: 'ES',
  ESPAÑA: 'ES',
  ESP: 'ES',
  ITALY: 'IT',
  ITALIA: 'IT',
  ITA: 'IT',
  NETHERLANDS: 'NL',
  'THE NETHERLANDS': 'NL',
  HOLLAND: 'NL',
  NLD: 'NL',
  BELGIUM: 'BE',
  BEL: 'BE',
  SWITZERLAND: 'CH',
  CHE: 'CH',
  AUSTRIA: 'AT',
  AUT: 'AT',
  IRELAND: 'IE',
  IRL: 'IE',
  AUSTRALIA: 'AU',
  AUS: 'AU',
  'NEW ZEALAND': 'NZ',
  NZL: 'NZ',
  JAPAN: 'JP',
  JPN: 'JP',
  CHINA: 'CN',
  CHN: 'CN',
  INDIA: 'IN',
  IND: 'IN',
  MEXICO: 'MX',
  MEX: 'MX',
  BRAZIL: 'BR',
  BRA: 'BR',
  SWEDEN: 'SE',
  SWE: 'SE',
  NORWAY: 'NO',
  NOR: 'NO',
  DENMARK: 'DK',
  DNK: 'DK',
  FINLAND: 'FI',
  FIN: 'FI',
  POLAND: 'PL',
  POL: 'PL',
  PORTUGAL: 'PT',
  PRT: 'PT',
  SINGAPORE: 'SG',
  SGP: 'SG',
  'HONG KONG': 'HK',
  HKG: 'HK',
  ISRAEL: 'IL',
  ISR: 'IL',
  'SOUTH AFRICA': 'ZA',
  ZAF: 'ZA',
  'SOUTH KOREA': 'KR',
  KOREA: 'KR',
  KOR: 'KR',
  KUWAIT: 'KW',
  KWT: 'KW',
  'UNITED ARAB EMIRATES': 'AE',
  UAE: 'AE',
  ARE: 'AE',
  PHILIPPINES: 'PH',
  PHL: 'PH',
  ARGENTINA: 'AR',
  ARG: 'AR',
  CHILE: 'CL',
  CHL: 'CL',
  COLOMBIA: 'CO',
  COL: 'CO',
  LUXEMBOURG: 'LU',
  LUX: 'LU',
};

/**
 * Reads what a sheet holds in a country column into a two-letter code: the code itself in any case,
 * or a common name / three-letter code. Returns undefined when it cannot be read with confidence.
 */
export function toCountryCode(text: string): string | undefined {
  const upper = text.trim().toUpperCase();
  if (isCountryCode(upper)) return upper;
  return COMMON_NAMES[upper];
}
