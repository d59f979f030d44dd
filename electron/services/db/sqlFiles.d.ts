// A migration file's text, bundled into every build: Vite (electron-vite, vitest) reads `?raw`
// itself; the esbuild bundles use scripts/esbuildRawText.mjs.
declare module '*.sql?raw' {
  const text: string;
  export default text;
}
