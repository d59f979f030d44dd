import { dispatch } from '../../../shared/contract';
import { donationPageUrl, pageLocale, type GivingOpportunity } from '../../../shared/contract/searchChannels';
import { EXIT, exitCodeFor } from '../exitCodes';
import { commandArgs, registerCommand } from '../main';

/*
 * Exit codes: 0 results found; 1 the search found nothing; 2 bad arguments (no query, coordinates out
 * of range); 3 the service could not be reached or refused access.
 */

/** Service text on a terminal: no control characters (escape sequences), `<em>` shown as *word*. */
export function terminalText(text: string): string {
  return text
    .replace(/<\/?em>/gi, '*')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .split('')
    .filter((ch) => {
      const code = ch.charCodeAt(0);
      return code === 10 || !(code < 32 || (code >= 127 && code < 160));
    })
    .join('');
}

function parseNear(text: string): { latitude: number; longitude: number } | null {
  const match = /^\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*$/.exec(text);
  return match ? { latitude: Number(match[1]), longitude: Number(match[2]) } : null;
}

function describe(result: GivingOpportunity, index: number, url: string): string {
  const badges = [result.company_match && 'company match', result.peer_match && 'peer match'].filter(Boolean);
  const lines = [
    `${index + 1}. ${terminalText(result.title)} (#${result.id})${badges.length ? ` [${badges.join(', ')}]` : ''}`,
    `   by ${terminalText(result.creator_name || result.creator_id || 'unknown')}`,
  ];
  const causes = (result.causes ?? []).map((c) => terminalText(c.name));
  if (causes.length) lines.push(`   causes: ${causes.join('; ')}`);
  const projects = (result.projects ?? []).map(
    (p) => `${terminalText(p.name)}${p.cause?.name ? ` (${terminalText(p.cause.name)})` : ''}`,
  );
  if (projects.length) lines.push(`   projects: ${projects.join('; ')}`);
  for (const s of [...(result.snippets?.title ?? []), ...(result.snippets?.body ?? [])].slice(0, 2)) {
    lines.push(`   … ${terminalText(s)} …`);
  }
  lines.push(`   ${url}`);
  return lines.join('\n');
}

registerCommand('search', {
  summary: 'Search giving opportunities by topic.',
  usage: `donation-desk search QUERY [--near LAT,LONG] [--autocorrect] [--json]

  --near LAT,LONG   rank causes and projects near this point first (decimal degrees;
                    write --near=-33.87,151.21 when the latitude is negative)
  --autocorrect     correct misspelled words
  --json            print {query, results: [...with donationPage]} as JSON

Exit codes: 0 results found; 1 nothing found; 2 bad arguments; 3 the service could not be reached or refused access.`,
  async run(ctx) {
    const parsed = commandArgs(ctx, { near: { type: 'string' }, autocorrect: { type: 'boolean' } });
    const q = parsed.positionals.join(' ').trim();
    if (!q) {
      ctx.io.err('Give a topic to search for: donation-desk search QUERY.');
      return EXIT.usage;
    }
    let near: { latitude: number; longitude: number } | undefined;
    if (parsed.values.near !== undefined) {
      near = parseNear(parsed.values.near) ?? undefined;
      if (!near) {
        ctx.io.err(
          `--near "${parsed.values.near}" is not LAT,LONG in decimal degrees, e.g. --near=-33.87,151.21.`,
        );
        return EXIT.usage;
      }
    }
    const desk = await ctx.runtime();
    const result = await dispatch(
      desk.services,
      'search.run',
      { q, autocorrect: parsed.values.autocorrect === true, ...(near ? { near } : {}) },
      { transport: 'cli' },
    );
    if (!result.ok) {
      ctx.io.err(result.error.message);
      return exitCodeFor('service', result.error.code);
    }
    const { results, programUrl } = result.value as { results: GivingOpportunity[]; programUrl: string };
    const locale = pageLocale((ctx.io.env.LC_ALL || ctx.io.env.LANG || '').split('.')[0]);
    const pages = results.map((r) => (programUrl ? donationPageUrl(programUrl, locale, r.id) : ''));
    if (ctx.json) {
      ctx.io.out(
        JSON.stringify(
          {
            query: q,
            near: near ?? null,
            autocorrect: parsed.values.autocorrect === true,
            results: results.map((r, i) => ({ ...r, donationPage: pages[i] })),
          },
          null,
          2,
        ),
      );
    } else if (results.length === 0) {
      ctx.io.err(
        `No giving opportunities match “${q}”.${parsed.values.autocorrect ? '' : ' Try --autocorrect.'}`,
      );
    } else {
      ctx.io.out(`${results.length} giving opportunit${results.length === 1 ? 'y' : 'ies'} for “${q}”:\n`);
      ctx.io.out(results.map((r, i) => describe(r, i, pages[i] ?? '')).join('\n\n'));
    }
    return results.length ? EXIT.ok : EXIT.problems;
  },
});
