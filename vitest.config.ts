import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', 'out/**', 'test/e2e/**'],
    environment: 'node',
    // Two test files at a time even on two cores (Vitest's default there is one): most files wait on
    // child processes, servers and disks, so two overlap that waiting.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    server: { deps: { inline: ['electron-store'] } },
  },
});
