import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'coverage', 'dist', 'web/dist', 'bench/results.json', 'test/browser/screenshots'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['test/**', 'bench/**', 'src/main.ts'],
    rules: { 'no-console': 'off' },
  },
);
