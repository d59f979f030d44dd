// docs/architecture.md's pictures are drawn from the imports: this fails when they no longer match.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REGENERATE, withGeneratedSection } from './diagram';
import { folderGraph } from './importGraph';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docPath = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));

describe('docs/architecture.md', () => {
  it('shows the layers and processes as the code has them', () => {
    const committed = readFileSync(docPath, 'utf8');
    const drawn = withGeneratedSection(committed, folderGraph(root));
    expect(
      drawn,
      'docs/architecture.md lost its architecture:begin / architecture:end markers',
    ).not.toBeNull();
    expect(
      committed,
      `docs/architecture.md no longer matches the imports: run \`${REGENERATE}\` and commit the result`,
    ).toBe(drawn);
  });
});
