import { createRng, intBetween, pick } from './random';

export type PaymentType = 'EFT' | 'CHEQUE' | 'PAYPAL';

export interface Cause {
  id: string;
  name: string;
  description: string;
  logoUrl: string;
  categories: string[];
  tags: string[];
  certification: { status: 'CERTIFIED' | 'PENDING' | 'NOT_CERTIFIED'; certifiedAt: string | null };
  ownerVerified: boolean;
  goodStanding: boolean;
  address: { line1: string; city: string; state: string; zip: string; country: string };
  latitude: number;
  longitude: number;
  accounts: Array<{ id: string; paymentType: PaymentType; currencyCode: string; preferred: boolean }>;
  projects: Project[];
}

export interface Project {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
}

export interface Portfolio {
  id: string;
  name: string;
  causeIds: string[];
}

export interface GivingOpportunity {
  id: number;
  title: string;
  description: string;
  imageUrl: string;
  creatorId: string;
  creatorName: string | null;
  creatorType: 'company' | 'cause';
  peerMatch: boolean;
  companyMatch: boolean;
  portfolioCode: string;
  causeIds: string[];
  projects: Array<{ causeId: string; projectId: string }>;
  tags: string[] | null;
  productArea: string | null;
  officeLocation: string | null;
  /** Offsets from the catalogue anchor, so "newest" and "soon" stay meaningful on any clock. */
  createdOffsetDays: number;
  eventOffsetDays: number | null;
}

export interface Catalogue {
  causes: Cause[];
  causeById: Map<string, Cause>;
  portfolios: Portfolio[];
  portfolioById: Map<string, Portfolio>;
  opportunities: GivingOpportunity[];
}

const CITIES = [
  {
    city: 'New York',
    state: 'NY',
    country: 'US',
    numeric: '840',
    lat: 40.7128,
    lon: -74.006,
    currency: 'USD',
  },
  {
    city: 'Chicago',
    state: 'IL',
    country: 'US',
    numeric: '840',
    lat: 41.8781,
    lon: -87.6298,
    currency: 'USD',
  },
  {
    city: 'Denver',
    state: 'CO',
    country: 'US',
    numeric: '840',
    lat: 39.7392,
    lon: -104.9903,
    currency: 'USD',
  },
  {
    city: 'Seattle',
    state: 'WA',
    country: 'US',
    numeric: '840',
    lat: 47.6062,
    lon: -122.3321,
    currency: 'USD',
  },
  {
    city: 'Austin',
    state: 'TX',
    country: 'US',
    numeric: '840',
    lat: 30.2672,
    lon: -97.7431,
    currency: 'USD',
  },
  { city: 'Atlanta', state: 'GA', country: 'US', numeric: '840', lat: 33.749, lon: -84.388, currency: 'USD' },
  {
    city: 'San Francisco',
    state: 'CA',
    country: 'US',
    numeric: '840',
    lat: 37.7749,
    lon: -122.4194,
    currency: 'USD',
  },
  {
    city: 'Boston',
    state: 'MA',
    country: 'US',
    numeric: '840',
    lat: 42.3601,
    lon: -71.0589,
    currency: 'USD',
  },
  {
    city: 'Toronto',
    state: 'ON',
    country: 'CA',
    numeric: '124',
    lat: 43.6532,
    lon: -79.3832,
    currency: 'CAD',
  },
  {
    city: 'Vancouver',
    state: 'BC',
    country: 'CA',
    numeric: '124',
    lat: 49.2827,
    lon: -123.1207,
    currency: 'CAD',
  },
  {
    city: 'Calgary',
    state: 'AB',
    country: 'CA',
    numeric: '124',
    lat: 51.0447,
    lon: -114.0719,
    currency: 'CAD',
  },
  {
    city: 'London',
    state: 'England',
    country: 'GB',
    numeric: '826',
    lat: 51.5074,
    lon: -0.1278,
    currency: 'GBP',
  },
  {
    city: 'Manchester',
    state: 'England',
    country: 'GB',
    numeric: '826',
    lat: 53.4808,
    lon: -2.2426,
    currency: 'GBP',
  },
  {
    city: 'Berlin',
    state: 'Berlin',
    country: 'DE',
    numeric: '276',
    lat: 52.52,
    lon: 13.405,
    currency: 'EUR',
  },
  {
    city: 'Munich',
    state: 'Bavaria',
    country: 'DE',
    numeric: '276',
    lat: 48.1351,
    lon: 11.582,
    currency: 'EUR',
  },
  {
    city: 'Paris',
    state: 'Ile-de-France',
    country: 'FR',
    numeric: '250',
    lat: 48.8566,
    lon: 2.3522,
    currency: 'EUR',
  },
  {
    city: 'Lyon',
    state: 'Auvergne-Rhone-Alpes',
    country: 'FR',
    numeric: '250',
    lat: 45.764,
    lon: 4.8357,
    currency: 'EUR',
  },
  {
    city: 'Dublin',
    state: 'Leinster',
    country: 'IE',
    numeric: '372',
    lat: 53.3498,
    lon: -6.2603,
    currency: 'EUR',
  },
  {
    city: 'Amsterdam',
    state: 'North Holland',
    country: 'NL',
    numeric: '528',
    lat: 52.3676,
    lon: 4.9041,
    currency: 'EUR',
  },
  {
    city: 'Sydney',
    state: 'NSW',
    country: 'AU',
    numeric: '036',
    lat: -33.8688,
    lon: 151.2093,
    currency: 'AUD',
  },
  {
    city: 'Melbourne',
    state: 'VIC',
    country: 'AU',
    numeric: '036',
    lat: -37.8136,
    lon: 144.9631,
    currency: 'AUD',
  },
  {
    city: 'Singapore',
    state: 'Singapore',
    country: 'SG',
    numeric: '702',
    lat: 1.3521,
    lon: 103.8198,
    currency: 'SGD',
  },
  {
    city: 'Bangalore',
    state: 'Karnataka',
    country: 'IN',
    numeric: '356',
    lat: 12.9716,
    lon: 77.5946,
    currency: 'INR',
  },
  {
    city: 'Tokyo',
    state: 'Tokyo',
    country: 'JP',
    numeric: '392',
    lat: 35.6762,
    lon: 139.6503,
    currency: 'JPY',
  },
  {
    city: 'Sao Paulo',
    state: 'SP',
    country: 'BR',
    numeric: '076',
    lat: -23.5505,
    lon: -46.6333,
    currency: 'BRL',
  },
  {
    city: 'Mexico City',
    state: 'CDMX',
    country: 'MX',
    numeric: '484',
    lat: 19.4326,
    lon: -99.1332,
    currency: 'MXN',
  },
  {
    city: 'Nairobi',
    state: 'Nairobi',
    country: 'KE',
    numeric: '404',
    lat: -1.2921,
    lon: 36.8219,
    currency: 'KES',
  },
  {
    city: 'Cape Town',
    state: 'Western Cape',
    country: 'ZA',
    numeric: '710',
    lat: -33.9249,
    lon: 18.4241,
    currency: 'ZAR',
  },
] as const;

const TOPICS = [
  { topic: 'education', words: ['literacy', 'school', 'students', 'teachers', 'scholarship', 'library'] },
  { topic: 'environment', words: ['forest', 'river', 'recycling', 'climate', 'trees', 'wildlife'] },
  { topic: 'health', words: ['clinic', 'vaccines', 'nutrition', 'hospital', 'mental', 'wellness'] },
  { topic: 'hunger', words: ['food', 'meals', 'pantry', 'harvest', 'kitchen', 'farmers'] },
  { topic: 'housing', words: ['shelter', 'homeless', 'housing', 'rebuild', 'families', 'neighbourhood'] },
  { topic: 'animals', words: ['animals', 'rescue', 'dogs', 'cats', 'sanctuary', 'veterinary'] },
  { topic: 'arts', words: ['music', 'theatre', 'painting', 'museum', 'dance', 'festival'] },
  { topic: 'disaster', words: ['relief', 'flood', 'earthquake', 'wildfire', 'emergency', 'recovery'] },
  { topic: 'youth', words: ['youth', 'mentoring', 'sports', 'coding', 'camp', 'afterschool'] },
  { topic: 'water', words: ['water', 'wells', 'sanitation', 'clean', 'ocean', 'coast'] },
] as const;

const NAME_PREFIXES = [
  'Bright',
  'Open',
  'Green',
  'United',
  'First',
  'Hope',
  'Common',
  'Northern',
  'River',
  'Little',
];
const NAME_SUFFIXES = [
  'Foundation',
  'Trust',
  'Alliance',
  'Network',
  'Society',
  'Project',
  'Collective',
  'Fund',
];
const STREETS = [
  'Main St',
  'Oak Ave',
  'Maple Rd',
  'High St',
  'Church Ln',
  'Park Blvd',
  'Lake Dr',
  'Mill Way',
];
const PRODUCT_AREAS = ['Payments', 'Cloud', 'Retail', 'Logistics', 'Research'];
const OFFICES = ['Denver HQ', 'London', 'Toronto', 'Singapore', 'Berlin'];
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function code(rng: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CODE_ALPHABET.charAt(Math.floor(rng() * CODE_ALPHABET.length));
  return out;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The seeded directory: the same seed always yields the same causes, projects, portfolios and opportunities. */
export function buildCatalogue(seed: number): Catalogue {
  const rng = createRng(seed ^ 0x5eed);
  const causes: Cause[] = [];
  const usedIds = new Set<string>();
  for (let i = 0; i < 320; i++) {
    const place = pick(rng, CITIES);
    const topic = pick(rng, TOPICS);
    let id: string;
    do id = `${place.numeric}-${String(intBetween(rng, 100000000, 999999999))}`;
    while (usedIds.has(id));
    usedIds.add(id);
    const word = pick(rng, topic.words);
    const name = `${pick(rng, NAME_PREFIXES)} ${capitalise(word)} ${pick(rng, NAME_SUFFIXES)} of ${place.city}`;
    const otherWords = topic.words.filter((w) => w !== word);
    const description =
      `${name} works on ${topic.topic} in ${place.city}: ${pick(rng, otherWords)} and ${pick(rng, otherWords)} ` +
      `programmes run with local volunteers since ${intBetween(rng, 1950, 2020)}.`;
    const lat = place.lat + (rng() - 0.5) * 0.3;
    const lon = place.lon + (rng() - 0.5) * 0.3;
    const paymentTypes: PaymentType[] = ['EFT', 'EFT', 'EFT', 'CHEQUE', 'PAYPAL'];
    const primary = pick(rng, paymentTypes);
    const accounts: Cause['accounts'] = [
      { id: `ACC-${code(rng, 8)}`, paymentType: primary, currencyCode: place.currency, preferred: true },
    ];
    if (rng() < 0.4) {
      const second = pick(
        rng,
        (['EFT', 'CHEQUE', 'PAYPAL'] as const).filter((p) => p !== primary),
      );
      accounts.push({
        id: `ACC-${code(rng, 8)}`,
        paymentType: second,
        currencyCode: place.currency,
        preferred: false,
      });
    }
    const projects: Project[] = [];
    const projectCount = intBetween(rng, 0, 3);
    for (let p = 0; p < projectCount; p++) {
      projects.push({
        id: code(rng, 10),
        name: `${capitalise(pick(rng, topic.words))} ${pick(rng, ['Initiative', 'Programme', 'Drive', 'Campaign'])}`,
        latitude: lat + (rng() - 0.5) * 0.1,
        longitude: lon + (rng() - 0.5) * 0.1,
      });
    }
    const certified = rng();
    causes.push({
      id,
      name,
      description,
      logoUrl: `/images/causes/${id}.svg`,
      categories: [capitalise(topic.topic)],
      tags: [topic.topic, word],
      certification:
        certified < 0.8
          ? {
              status: 'CERTIFIED',
              certifiedAt: `20${String(intBetween(rng, 10, 23))}-0${intBetween(rng, 1, 9)}-15`,
            }
          : { status: certified < 0.9 ? 'PENDING' : 'NOT_CERTIFIED', certifiedAt: null },
      ownerVerified: rng() < 0.85,
      // Every 16th cause is "not in good standing" so declines are predictable from the seed.
      goodStanding: i % 16 !== 5,
      address: {
        line1: `${intBetween(rng, 1, 999)} ${pick(rng, STREETS)}`,
        city: place.city,
        state: place.state,
        zip: String(intBetween(rng, 10000, 99999)),
        country: place.country,
      },
      latitude: Math.round(lat * 1e6) / 1e6,
      longitude: Math.round(lon * 1e6) / 1e6,
      accounts,
      projects,
    });
  }

  const portfolios: Portfolio[] = [];
  for (let i = 0; i < 24; i++) {
    const topic = TOPICS[i % TOPICS.length];
    if (!topic) continue;
    const members = causes.filter((c) => c.goodStanding && c.categories[0] === capitalise(topic.topic));
    const causeIds = members.slice(0, intBetween(rng, 2, 5)).map((c) => c.id);
    portfolios.push({
      id: `P-${code(rng, 8)}`,
      name: `${capitalise(topic.topic)} portfolio ${i + 1}`,
      causeIds,
    });
  }

  const opportunities: GivingOpportunity[] = [];
  for (let i = 0; i < 600; i++) {
    const cause = pick(rng, causes);
    const topic = TOPICS.find((t) => capitalise(t.topic) === cause.categories[0]) ?? TOPICS[0];
    const word = pick(rng, topic.words);
    const byCompany = rng() < 0.3;
    const withProject = cause.projects.length > 0 && rng() < 0.6;
    const project = withProject ? pick(rng, cause.projects) : undefined;
    const kind = pick(rng, ['Support', 'Fund', 'Back', 'Join', 'Sponsor', 'Give to']);
    const title = `${kind} ${word} ${pick(rng, ['in', 'for', 'across'])} ${cause.address.city}`;
    const portfolio = rng() < 0.2 ? pick(rng, portfolios) : undefined;
    const hasEvent = rng() < 0.35;
    opportunities.push({
      id: 100000 + i * 7 + intBetween(rng, 0, 6),
      title,
      description:
        `Help ${cause.name} with ${word} work for ${topic.topic}. ` +
        `Every gift goes to ${project ? project.name : 'the core programme'} near ${cause.address.city}.`,
      imageUrl: `/images/opportunities/${String(100000 + i)}.svg`,
      creatorId: byCompany ? `company-${code(rng, 6)}` : cause.id,
      creatorName: byCompany ? (rng() < 0.5 ? 'Acme Corporation' : null) : cause.name,
      creatorType: byCompany ? 'company' : 'cause',
      peerMatch: rng() < 0.4,
      companyMatch: rng() < 0.3,
      portfolioCode: portfolio ? portfolio.id : '',
      causeIds: [cause.id],
      projects: project ? [{ causeId: cause.id, projectId: project.id }] : [],
      tags: rng() < 0.7 ? [topic.topic, word] : null,
      productArea: byCompany ? pick(rng, PRODUCT_AREAS) : null,
      officeLocation: byCompany ? pick(rng, OFFICES) : null,
      createdOffsetDays: -intBetween(rng, 0, 720),
      eventOffsetDays: hasEvent ? intBetween(rng, -30, 120) : null,
    });
  }
  // The image ids must match the opportunity ids for the program pages; assign them after ids are fixed.
  for (const opportunity of opportunities)
    opportunity.imageUrl = `/images/opportunities/${opportunity.id}.svg`;

  return {
    causes,
    causeById: new Map(causes.map((c) => [c.id, c])),
    portfolios,
    portfolioById: new Map(portfolios.map((p) => [p.id, p])),
    opportunities,
  };
}
