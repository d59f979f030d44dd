// Node loader hooks for the browser tests: a migration file imported as `…/V001__x.sql?raw` (as Vite
// and the esbuild bundles take it) becomes a module whose default export is the file's text, so the
// specs can set up a team database with the app's own code.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export async function load(url, context, nextLoad) {
  const [path] = url.split('?');
  if (url.startsWith('file:') && path.endsWith('.sql')) {
    const text = await readFile(fileURLToPath(path), 'utf8');
    return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
  }
  return nextLoad(url, context);
}
