// Bundles the plain-Node entry points (local bridge, CLI, emulator) into out/, next to what
// electron-vite builds for Electron. Each is one CommonJS file that runs with plain `node`.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { rawText } from './esbuildRawText.mjs';

const entries = [
  { in: 'electron/bridge/index.ts', out: 'out/bridge/index.cjs' },
  { in: 'electron/cli/index.ts', out: 'out/cli/index.cjs' },
  { in: 'emulator/index.ts', out: 'out/emulator/index.cjs' },
].filter((e) => existsSync(e.in));

await Promise.all(
  entries.map((e) =>
    build({
      entryPoints: [e.in],
      outfile: e.out,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: false,
      // The SQLite binding loads its native binary from beside its own files: never bundled.
      // pg-native is pg's optional libpq binding, required only if pg.native is read (never here):
      // left a plain require, as esbuild would leave it inside pg's try/catch anyway.
      external: ['electron', '@photostructure/sqlite', 'pg-native'],
      logLevel: 'warning',
      // The schema migrations (.sql files) are bundled as text.
      plugins: [rawText],
      // electron-store/conf are ESM and read import.meta.url; give them a CommonJS equivalent.
      define: { 'import.meta.url': 'importMetaUrl' },
      banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
  ),
);
console.log(`built ${entries.map((e) => e.out).join(', ')}`);
