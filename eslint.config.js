// Lint for every workspace: the recommended JS and TypeScript rules; type
// errors themselves are the compiler's job (`npm run lint` runs tsc too).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { houseBoundaries } from './eslint/house-rules.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tap/**', 'test-artifacts/**', 'bench/out/**', 'data/**', '.test-build/**', 'test-timings/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The house's import boundaries (ARCHITECTURE.md): services, domain/adapters, web features, drivers.
  ...houseBoundaries,
);
