// The README and the pages under docs/ name files, images and headings; each must exist.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** README.md and every markdown file under docs/, as paths relative to the repository. */
function docPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages;
}

/** The text outside fenced code blocks and inline code, where links are links. */
function proseOf(markdown: string): string {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      lines.push('');
    } else if (marker) {
      fence = marker;
      lines.push('');
    } else {
      lines.push(line.replace(/(`+)[^`]*?\1/g, ''));
    }
  }
  return lines.join('\n');
}

/** Every link and image target in the prose: `[text](target)`, `![alt](target "title")`. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  const pattern = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;
  for (const match of proseOf(markdown).matchAll(pattern)) targets.push(match[1] ?? '');
  return targets;
}

/** The anchors a markdown file's headings get, as GitHub makes them (a repeat gets -1, -2, …). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOf(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[*`]/g, '')
      .replace(/(^|\s)_+|_+(\s|$)/g, '$1$2');
    const slug = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function readIfThere(file: string): string | null {
  if (!existsSync(file)) return null;
  return statSync(file).isDirectory() ? '' : readFileSync(file, 'utf8');
}

/** What is wrong with one page's links, one line per broken link (none when all hold). */
function brokenLinks(page: string, markdown: string, read = readIfThere): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
    if (pathPart.startsWith('/')) {
      problems.push(`${page}: ${target} (use a relative link)`);
      continue;
    }
    const file = pathPart === '' ? join(root, page) : resolve(root, dirname(page), pathPart);
    if (!relative(root, file) || relative(root, file).startsWith('..')) {
      problems.push(`${page}: ${target} (outside the repository)`);
      continue;
    }
    const text = read(file);
    if (text === null) {
      problems.push(`${page}: ${target} (no such file)`);
      continue;
    }
    if (anchor && file.endsWith('.md')) {
      const anchors = headingAnchors(text);
      if (!anchors.has(anchor)) problems.push(`${page}: ${target} (no heading #${anchor})`);
    }
  }
  return problems;
}

describe('links in the README and docs/', () => {
  it('finds the pages', () => {
    const pages = docPages();
    expect(pages).toContain('README.md');
    expect(pages).toContain(join('docs', 'decisions', 'README.md'));
  });

  it('names only files, images and headings that exist', () => {
    const problems = docPages().flatMap((page) => brokenLinks(page, readFileSync(join(root, page), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('catches a missing file, image and heading, and ignores code and web addresses', () => {
    const markdown = [
      '# Title',
      '',
      '## Over the network: TLS',
      '',
      '[ok](#over-the-network-tls) [ok](docs/guide.md#start) [web](https://example.com/x.md)',
      '[bad](docs/guide.md#end)',
      '[gone](docs/nowhere.md) ![gone](docs/images/nowhere.png) [bad](#no-such-heading)',
      '`[code](not-a-link.md)`',
      '```sh',
      '[fenced](not-a-link-either.md)',
      '```',
    ].join('\n');
    const files = new Map([
      [join(root, 'README.md'), markdown],
      [join(root, 'docs', 'guide.md'), '# Guide\n\n## Start\n'],
    ]);
    const problems = brokenLinks('README.md', markdown, (file) => files.get(file) ?? null);
    expect(problems).toEqual([
      'README.md: docs/guide.md#end (no heading #end)',
      'README.md: docs/nowhere.md (no such file)',
      'README.md: docs/images/nowhere.png (no such file)',
      'README.md: #no-such-heading (no heading #no-such-heading)',
    ]);
  });

  it('makes anchors as GitHub does', () => {
    const anchors = headingAnchors(
      ['## Who sends: the preparer or the approver', '## Settings → Data', '## Tests', '## Tests'].join('\n'),
    );
    expect([...anchors]).toEqual([
      'who-sends-the-preparer-or-the-approver',
      'settings--data',
      'tests',
      'tests-1',
    ]);
  });
});

describe('the README is the front door', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('stays at most 12,000 bytes', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12_000);
  });

  it('gives the test command CI runs', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
    expect(readme).toMatch(/```sh\nnpm test\n```/);
  });
});
