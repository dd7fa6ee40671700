// ESLint flat config. Import zones enforce design ARCHITECTURE.md "Import rules":
// views → machines, schemas, lib, config; machines → api, schemas, lib, config; api → schemas, lib, config;
// schemas → nothing; i18n → nothing; server → src/schemas, src/lib and src/config only; nothing in src imports server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const zone = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'data/**', 'pacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone('./src', './server', 'The web app never imports the server.'),
            zone('./src/schemas', './src/api', 'schemas import nothing.'),
            zone('./src/schemas', './src/machines', 'schemas import nothing.'),
            zone('./src/schemas', './src/views', 'schemas import nothing.'),
            zone('./src/schemas', './src/lib', 'schemas import nothing.'),
            zone('./src/lib', './src/machines', 'lib is below machines.'),
            zone('./src/lib', './src/views', 'lib is below views.'),
            zone('./src/lib', './src/api', 'lib is below api.'),
            zone('./src/api', './src/machines', 'api is below machines.'),
            zone('./src/api', './src/views', 'api is below views.'),
            zone('./src/machines', './src/views', 'machines never import views.'),
            zone('./src/views', './src/api', 'views talk to machines, never to the api.'),
            zone('./src/i18n', './src/api', 'i18n (label catalogues) imports nothing.'),
            zone('./src/i18n', './src/machines', 'i18n (label catalogues) imports nothing.'),
            zone('./src/i18n', './src/views', 'i18n (label catalogues) imports nothing.'),
            zone('./src/i18n', './src/lib', 'i18n (label catalogues) imports nothing.'),
            // …and the markup it draws for pages (static, no data) (server/preload-hints.ts, docs/decisions.md "Skeleton first").
            {
              ...zone('./server', './src/views', 'server imports only src/schemas and src/lib.'),
              except: ['./landing/LandingPage.tsx', './mapas/map-skeleton.tsx', './inicio/HomeView.tsx', './inicio/home-icon.ts'],
            },
            zone('./server', './src/machines', 'server imports only src/schemas and src/lib.'),
            zone('./server', './src/api', 'server imports only src/schemas and src/lib.'),
          ],
        },
      ],
    },
  },
  // Blueprint components with English accessible names or dangling ARIA references: views use the
  // Spanish wrappers (docs/decisions.md "Accessible names and ARIA references").
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/views/shared/BlueprintEs.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@blueprintjs/core',
              importNames: ['Dialog', 'Drawer', 'HTMLSelect', 'NumericInput'],
              message: 'Import it from src/views/shared/BlueprintEs.tsx (Spanish accessible names, valid aria-controls).',
            },
          ],
        },
      ],
    },
  },
);
