import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * The import arrows of the architecture brief, enforced at any folder depth: src -> machines -> contract,
 * server -> contract. A relative import that climbs (`../`, however many) into one of the named rooms is
 * refused, so a file nested four folders down is held to the same rule as one at the top.
 */
const ours = (...rooms) => ({
  regex: `^(\\.\\./)+(${rooms.join('|')})(/|$)`,
  message: `Imports run src -> machines -> contract and server -> contract: not from ${rooms.join(', ')} here.`,
});
const nodeBuiltins = {
  group: ['node:*', 'fs', 'path', 'crypto', 'os', 'child_process', 'http', 'url'],
  message: 'Node built-ins belong to the server.',
};
/**
 * The HTTP layer (server/http/) stands under the areas: it may reach the contract and the parts below it
 * (settings, errors, the log, the audit log, the database, mail, storage), and nothing else of the
 * server. What it needs of an area is passed in (server/app.ts hands the access check its rule and its
 * caller) or declared by the area on the request's context (`declare module`, server/http/context.ts).
 */
const BELOW_HTTP = [
  'config',
  'errors',
  'log',
  'audit',
  'db/client',
  'mail/mailer',
  'storage/storage',
  'storage/uploads',
];
const noArea = {
  regex: `^\\.\\./(?!\\.\\./contract/|(${BELOW_HTTP.join('|')})$)`,
  message: `The HTTP layer imports no area: only ${BELOW_HTTP.join(', ')} and the contract; pass an area's part in.`,
};
const packages = (...names) => ({ group: names, message: `Not in this room: ${names.join(', ')}.` });

/**
 * server/scores/ in layers, each file importing only files of the layers under it: the sheet as stored,
 * the blind rule and the papers' rules at the bottom; the markers' agreement on them; the sheets and the
 * results on the agreement; marks on the sheets; marks from paper on top.
 */
const SCORE_LAYERS = [
  ['roster', 'blind', 'papers'],
  ['agreement'],
  ['sheets', 'results'],
  ['marks'],
  ['import'],
];
const scoreLayers = SCORE_LAYERS.flatMap((layer, at) =>
  layer.map((file) => {
    const above = SCORE_LAYERS.slice(at)
      .flat()
      .filter((other) => other !== file);
    return {
      files: [`server/scores/${file}.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ours('src', 'machines'),
              packages('react', 'react-dom'),
              {
                regex: `^\\./(${above.join('|')})$`,
                message: `server/scores/ imports one way (eslint.config.js SCORE_LAYERS): ${file} may not import ${above.join(', ')}.`,
              },
            ],
          },
        ],
      },
    };
  }),
);

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
      'no-restricted-imports': ['error', { patterns: [ours('server'), nodeBuiltins] }],
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ours('src', 'machines', 'server'), nodeBuiltins, packages('react', 'react-dom')] },
      ],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ours('src', 'server'), nodeBuiltins, packages('react', 'react-dom', 'ofetch')] },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ours('src', 'machines'), packages('react', 'react-dom')] },
      ],
    },
  },
  {
    files: ['server/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ours('src', 'machines'), noArea, packages('react', 'react-dom')] },
      ],
    },
  },
  ...scoreLayers,
);
