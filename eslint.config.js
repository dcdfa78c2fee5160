import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** The import arrows of the architecture brief, enforced: src -> machines -> contract, server -> contract. */
const ours = (...rooms) => rooms.flatMap((room) => [`../${room}/*`, `../../${room}/*`, `../../../${room}/*`]);
const nodeBuiltins = ['node:*', 'fs', 'path', 'crypto', 'os', 'child_process', 'http', 'url'];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'dist-*', 'data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [...ours('server'), ...nodeBuiltins] }],
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...ours('src', 'machines', 'server'), ...nodeBuiltins, 'react', 'react-dom'] },
      ],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...ours('src', 'server'), ...nodeBuiltins, 'react', 'react-dom', 'ofetch'] },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...ours('src', 'machines'), 'react', 'react-dom'] }],
    },
  },
);
