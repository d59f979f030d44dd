import type { Catalogue, Cause, GivingOpportunity } from './catalogue';

const DAY_MS = 86_400_000;
const MAX_RESULTS = 50;

export interface SearchQuery {
  q: string;
  location?: { latitude: number; longitude: number };
  autocorrect: boolean;
}

function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Escapes the text, then wraps every word equal to a search term in <em>, the only markup we emit. */
function highlight(text: string, terms: readonly string[]): string | null {
  let matched = false;
  const out = text.replace(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu, (part) => {
    if (terms.includes(part.toLowerCase())) {
      matched = true;
      return `<em>${escapeHtml(part)}</em>`;
    }
    return escapeHtml(part);
  });
  return matched ? out : null;
}

function levenshtein(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

function haversineKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad;
  const dLon = (bLon - aLon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(h));
}

interface IndexedOpportunity {
  opportunity: GivingOpportunity;
  causes: Cause[];
  ownWords: Set<string>;
  causeWords: Set<string>;
}

export class SearchIndex {
  private readonly indexed: IndexedOpportunity[];
  private readonly vocabulary = new Map<string, number>();

  constructor(
    private readonly catalogue: Catalogue,
    private readonly programUrl: () => string,
  ) {
    this.indexed = catalogue.opportunities.map((opportunity) => {
      const causes = opportunity.causeIds.flatMap((id) => catalogue.causeById.get(id) ?? []);
      const ownWords = new Set(
        tokenize([opportunity.title, opportunity.description, ...(opportunity.tags ?? [])].join(' ')),
      );
      const causeWords = new Set(
        tokenize(
          causes
            .map((c) =>
              [
                c.name,
                c.description,
                ...c.tags,
                c.address.line1,
                c.address.city,
                c.address.state,
                c.address.country,
              ].join(' '),
            )
            .join(' '),
        ),
      );
      for (const word of [...ownWords, ...causeWords])
        this.vocabulary.set(word, (this.vocabulary.get(word) ?? 0) + 1);
      return { opportunity, causes, ownWords, causeWords };
    });
  }

  /** Replaces each term that is not in the vocabulary by the closest word within two edits. */
  correct(terms: string[]): string[] {
    return terms.map((term) => {
      if (this.vocabulary.has(term) || term.length < 3) return term;
      let best: { word: string; distance: number; frequency: number } | undefined;
      for (const [word, frequency] of this.vocabulary) {
        const distance = levenshtein(term, word, 2);
        if (distance > 2) continue;
        if (
          !best ||
          distance < best.distance ||
          (distance === best.distance && frequency > best.frequency) ||
          (distance === best.distance && frequency === best.frequency && word < best.word)
        ) {
          best = { word, distance, frequency };
        }
      }
      return best ? best.word : term;
    });
  }

  search(query: SearchQuery, nowMs: number, anchorMs: number): { giving_opportunities: unknown[] } {
    let terms = [...new Set(tokenize(query.q))];
    if (query.autocorrect) terms = this.correct(terms);
    const scored: Array<{ item: IndexedOpportunity; score: number; relevance: number }> = [];
    for (const item of this.indexed) {
      let relevance = 0;
      let all = true;
      for (const term of terms) {
        if (item.ownWords.has(term)) relevance += 2;
        else if (item.causeWords.has(term)) relevance += 1;
        else all = false;
      }
      if (!all || terms.length === 0) continue;
      scored.push({ item, score: this.rank(item, query, nowMs, anchorMs), relevance });
    }
    scored.sort(
      (a, b) =>
        b.score - a.score || b.relevance - a.relevance || a.item.opportunity.id - b.item.opportunity.id,
    );
    return {
      giving_opportunities: scored.slice(0, MAX_RESULTS).map(({ item }) => this.render(item, terms)),
    };
  }

  /** Freshness (recently created, or an event coming up) first; a search location adds a proximity boost. */
  private rank(item: IndexedOpportunity, query: SearchQuery, nowMs: number, anchorMs: number): number {
    const o = item.opportunity;
    const ageDays = Math.max(0, (nowMs - (anchorMs + o.createdOffsetDays * DAY_MS)) / DAY_MS);
    let freshness = 1 / (1 + ageDays / 30);
    if (o.eventOffsetDays !== null) {
      const untilDays = (anchorMs + o.eventOffsetDays * DAY_MS - nowMs) / DAY_MS;
      if (untilDays >= 0) freshness = Math.max(freshness, 1 / (1 + untilDays / 30));
    }
    if (!query.location) return freshness;
    const { latitude, longitude } = query.location;
    const points = [
      ...item.causes.map((c) => [c.latitude, c.longitude] as const),
      ...o.projects.flatMap((p) => {
        const project = this.catalogue.causeById.get(p.causeId)?.projects.find((x) => x.id === p.projectId);
        return project ? [[project.latitude, project.longitude] as const] : [];
      }),
    ];
    const nearest = Math.min(...points.map(([lat, lon]) => haversineKm(latitude, longitude, lat, lon)));
    return freshness + 2 / (1 + nearest / 100);
  }

  private render(item: IndexedOpportunity, terms: string[]): unknown {
    const o = item.opportunity;
    const logo = (c: Cause): string => `${this.programUrl()}${c.logoUrl}`;
    const causeHighlight = item.causes.map((c) => highlight(c.name, terms)).find((h) => h !== null) ?? null;
    const tagHighlights = (o.tags ?? []).flatMap((t) => highlight(t, terms) ?? []);
    const title = highlight(o.title, terms);
    const body = [
      highlight(o.description, terms),
      ...item.causes.map((c) => highlight(c.description, terms)),
    ].filter((h): h is string => h !== null);
    return {
      id: o.id,
      title: o.title,
      description: o.description,
      image_url: o.imageUrl,
      creator_id: o.creatorId,
      creator_name: o.creatorName,
      creator_type: o.creatorType,
      peer_match: o.peerMatch,
      company_match: o.companyMatch,
      portfolio_code: o.portfolioCode,
      projects: o.projects.flatMap((p) => {
        const cause = this.catalogue.causeById.get(p.causeId);
        const project = cause?.projects.find((x) => x.id === p.projectId);
        if (!cause || !project) return [];
        return [
          {
            name: project.name,
            cause: { name: cause.name, logo_url: logo(cause) },
            geo_coordinates: {
              latitude: project.latitude.toFixed(6),
              longitude: project.longitude.toFixed(6),
            },
          },
        ];
      }),
      causes: item.causes.map((c) => ({
        name: c.name,
        logo_url: logo(c),
        geo_coordinates: { latitude: c.latitude.toFixed(6), longitude: c.longitude.toFixed(6) },
      })),
      tags: o.tags,
      product_area: o.productArea,
      office_location: o.officeLocation,
      snippets: {
        cause: causeHighlight,
        tag: tagHighlights.length > 0 ? tagHighlights : null,
        title: title ? [title] : [],
        body,
      },
    };
  }

  autocomplete(q: string): unknown[] {
    const prefix = q.trim().toLowerCase();
    return this.catalogue.causes
      .filter(
        (c) => tokenize(c.name).some((w) => w.startsWith(prefix)) || c.name.toLowerCase().startsWith(prefix),
      )
      .slice(0, 10)
      .map((c) => ({
        type: 'causes',
        id: c.id,
        attributes: {
          name: c.name,
          logoUrl: `${this.programUrl()}${c.logoUrl}`,
          city: c.address.city,
          country: c.address.country,
        },
      }));
  }
}
