import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * MUI's Typography takes a colour by a palette name it knows ("primary", "error", "textSecondary"),
 * not by a path into the palette: `color="text.secondary"` is silently no colour at all, and a line
 * meant to be quieter is drawn like the words it explains. (`sx={{ color: 'text.secondary' }}`, which
 * does take paths, is fine.)
 */
describe('colours named as MUI knows them', () => {
  it('no Typography colour prop names a palette path', () => {
    const offenders: string[] = [];
    const files = readdirSync(join(process.cwd(), 'renderer', 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => join('renderer', 'src', f));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const source = readFileSync(join(process.cwd(), file), 'utf8');
      const pattern = /\bcolor=(?:"([a-z]+\.[a-zA-Z]+)"|\{[^}]*'([a-z]+\.[a-zA-Z]+)'[^}]*\})/g;
      for (const match of source.matchAll(pattern)) {
        const line = source.slice(0, match.index).split('\n').length;
        offenders.push(`${file}:${line} ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
