import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', 'out/**', 'test/e2e/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    server: { deps: { inline: ['electron-store'] } },
  },
});
