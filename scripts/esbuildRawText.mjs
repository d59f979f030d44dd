// `import text from './file.sql?raw'` for esbuild bundles, as Vite (electron-vite, vitest) reads it:
// the file's text as the module's default export. The schema migrations are bundled this way.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

export const rawText = {
  name: 'raw-text',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw-text',
    }));
    build.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
      watchFiles: [args.path],
    }));
  },
};
