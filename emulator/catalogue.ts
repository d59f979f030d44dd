import { createRng, intBetween, pick } from './random';
import {
  CITIES,
  TOPICS,
  NAME_PREFIXES,
  NAME_SUFFIXES,
  STREETS,
  PRODUCT_AREAS,
  OFFICES,
  CODE_ALPHABET,
} from './catalogueWords';

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
