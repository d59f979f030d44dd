import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import {
  SHEETJS_READER_FILE,
  SHEETJS_READER_SOURCE,
} from './electron/services/spreadsheet/sheetJSReaderSource';

/**
 * Writes the spreadsheet reader's program beside main's bundle: the desktop app starts it as an
 * Electron utility process, which runs a file (electron/main/readerProcess.ts).
 */
const sheetJSReaderFile: Plugin = {
  name: 'desk-sheetjs-reader-file',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: SHEETJS_READER_FILE, source: SHEETJS_READER_SOURCE });
  },
};

export default defineConfig({
  main: {
    plugins: [sheetJSReaderFile],
    build: {
      outDir: 'out/main',
      // Bundle every dependency into main: electron-store and conf are ESM-only and cannot be
      // require()d from this CommonJS bundle, and a self-contained main lets the package ship
      // without node_modules (see electron-builder.yml).
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/main/index.ts') },
        // The SQLite binding loads its native binary (N-API, per platform) from beside its own files,
        // so it stays a require(); electron-builder ships it in resources/node_modules (see
        // electron-builder.yml), where Node's resolution from app.asar finds it.
        external: ['@photostructure/sqlite'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot load modules: bundle everything into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      sourcemap: false,
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
    worker: { format: 'es' },
  },
});
