import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Test projects:
 * - unit: machines, lib, api and views (jsdom; DOMPurify is unsafe under happy-dom).
 * - server: the API server through `inject` on temp SQLite (and PostgreSQL when DATABASE_URL is set).
 * - contract: Pact consumer and provider tests (node environment).
 * - e2e: real Chromium against the built app served by the real server.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/views/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/jsdom.ts'],
          // Typing into forms with user-event is slow under load; 20 s keeps slow runs from failing.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // One migrated PostgreSQL database per run, copied by each test database (docs/testing.md).
          globalSetup: ['tests/setup/pg-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          environment: 'node',
          include: ['tests/contract/**/*.test.ts'],
          // The provider verification is one test over every interaction (~100 s on a quiet 2-core
          // machine, >300 s with the cores saturated): 15 min leaves room for a 3x slower, loaded one.
          testTimeout: 900_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          // Pact records matched requests a moment after answering them: wait for the record (see the file).
          setupFiles: ['tests/setup/pact-recorded.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 400_000,
          // A file's server seeds the demo before it answers (~25 s on a 2-core machine under load,
          // tests/e2e/harness.ts): room for a machine three times slower.
          hookTimeout: 300_000,
          fileParallelism: false,
          // Pact records matched requests a moment after answering them: wait for the record (see the file).
          setupFiles: ['tests/setup/pact-recorded.ts'],
        },
      },
    ],
  },
});
