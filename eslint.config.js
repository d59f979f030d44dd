// Lint also enforces the process boundaries of docs/ARCHITECTURE (see docs/decisions/0003-one-composition-root.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'stream',
  'url',
  'util',
  'worker_threads',
  'zlib',
  'readline',
  'timers',
  'process',
];
const nodeBuiltinPaths = nodeBuiltins.map((name) => ({
  name,
  message: 'No Node builtins here: this code runs in the browser too.',
}));
const nodeBuiltinPatterns = ['node:*'];
// What main-side code (services, bridge, CLI) may not import.
const mainSidePaths = [
  {
    name: 'electron',
    message: 'Services are plain Node: pass Electron capabilities in at start-up.',
  },
];
const mainSidePatterns = [
  { group: ['**/renderer/**'], message: 'Main-side code imports nothing from the renderer.' },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      'release/',
      'test-results/',
      'playwright-report/',
      'coverage/',
      '.tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'shared/ runs everywhere: no electron.' },
            { name: 'react', message: 'shared/ has no UI code.' },
            ...nodeBuiltinPaths,
          ],
          patterns: [
            { group: nodeBuiltinPatterns, message: 'shared/ runs in the browser too: no Node builtins.' },
            {
              group: ['**/electron/**', '**/renderer/**', '**/emulator/**', '@mui/*', 'react-dom*'],
              message: 'shared/ depends on nothing app-specific.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer reaches main only through window.desk.' },
            ...nodeBuiltinPaths,
          ],
          patterns: [
            { group: ['**/electron/**'], message: 'The renderer imports nothing from electron/.' },
            { group: ['**/emulator/**'], message: 'The renderer talks to the service only through main.' },
            { group: nodeBuiltinPatterns, message: 'The renderer is sandboxed: no Node builtins.' },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/services/**/*.ts', 'electron/bridge/**/*.ts', 'electron/cli/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: mainSidePaths, patterns: mainSidePatterns }],
    },
  },
  {
    // Inside the services, team mode is reached only from team/ itself and the composition root,
    // through interfaces the other folders own (docs/architecture.md; test/architecture checks it too).
    files: ['electron/services/**/*.ts'],
    ignores: ['**/*.test.ts', 'electron/services/team/**', 'electron/services/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: mainSidePaths,
          patterns: [
            ...mainSidePatterns,
            {
              group: ['**/team', '**/team/**'],
              message:
                'Only team/ and electron/services/index.ts import team/: own a small interface here and let index.ts wire the team implementation.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['emulator/**/*.ts'],
    ignores: ['emulator/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The emulator is a stand-alone service.' }],
          patterns: [
            {
              // Except the service's calendar: the spec's maintenance windows, computed once (decision 0123).
              group: ['**/electron/**', '**/renderer/**', '**/shared/**', '!**/shared/service-calendar'],
              message: 'The emulator implements the spec on its own: it imports nothing from the app.',
            },
          ],
        },
      ],
    },
  },
);
