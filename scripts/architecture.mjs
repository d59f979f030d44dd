// `npm run architecture`: redraws the pictures of docs/architecture.md from the code's imports
// (between its markers), with the same graph code the layer test uses (test/architecture/).
// test/architecture/diagram.test.ts fails when the committed pictures differ from what this writes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docPath = join(root, 'docs', 'architecture.md');
// The graph code is TypeScript: bundled once into .tmp/ (inside the checkout, so its packages resolve).
const outfile = join(root, '.tmp', 'architecture.mjs');
mkdirSync(dirname(outfile), { recursive: true });
await build({
  stdin: {
    contents: `
      export { folderGraph } from './test/architecture/importGraph';
      export { withGeneratedSection } from './test/architecture/diagram';
    `,
    resolveDir: root,
    loader: 'ts',
  },
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
const { folderGraph, withGeneratedSection } = await import(pathToFileURL(outfile).href);

const before = readFileSync(docPath, 'utf8');
const after = withGeneratedSection(before, folderGraph(root));
if (after === null) {
  console.error('docs/architecture.md has lost its architecture:begin / architecture:end markers.');
  process.exit(1);
}
if (after === before) {
  console.log('docs/architecture.md is up to date.');
} else {
  writeFileSync(docPath, after);
  console.log('docs/architecture.md redrawn from the imports.');
}
