/**
 * E2E of Lighthouse's accessibility category (docs/testing.md "Accessibility sweep"): the pages a
 * visitor reaches first — /auth/login, /auth/loginclientes, /landing and the public map of the
 * published demo subdivision — score 1 (every audit that counts passes). Lighthouse 12 (its default
 * mobile profile, as scripts/bench-lighthouse.mjs runs it) drives Debian's Chromium, launched with
 * chrome-launcher, against the real server with the built app (tests/e2e/harness.ts), only the
 * accessibility category. A page below 1 fails with its failing audits and their elements.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH, demoAdminSubdivisions } from '../../scripts/lib/server-process.mjs';
import { startServer, type RunningServer } from './harness';

let server: RunningServer;
let chrome: chromeLauncher.LaunchedChrome;
let profile: string;

beforeAll(async () => {
  server = await startServer();
  profile = mkdtempSync(path.join(tmpdir(), 'parcela-lighthouse-a11y-'));
  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    userDataDir: profile,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
});

afterAll(async () => {
  await chrome?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await server?.stop();
});

/** Lighthouse's accessibility score of `url`, and its failing audits (id, title, the elements' selectors). */
async function accessibility(url: string): Promise<{ score: number | null; failing: string[] }> {
  const result = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['accessibility'] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse on ${url}: ${runtimeError.message}`);
  const failing = categories
    .accessibility!.auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id]!.score !== null && audits[ref.id]!.score! < 1)
    .map((ref) => {
      const audit = audits[ref.id]!;
      const items = ((audit.details as { items?: { node?: { selector?: string; snippet?: string } }[] } | undefined)?.items ?? [])
        .map((item) => item.node?.selector ?? item.node?.snippet)
        .filter(Boolean);
      return `${audit.id} (${audit.title})${items.length ? `: ${items.join(' | ')}` : ''}`;
    });
  return { score: categories.accessibility!.score, failing };
}

describe('lighthouse accessibility e2e', () => {
  it('login, customer login, landing and the public map score 1', { timeout: 600_000 }, async () => {
    const { subdivisions } = await demoAdminSubdivisions(server.baseUrl);
    const published = subdivisions.find((s) => s.published === true) ?? subdivisions[0]!;
    const pages = ['/auth/login', '/auth/loginclientes', '/landing', `/mapa/los-vinedos-de-carabayllo/${published.key}`];
    const below: string[] = [];
    for (const page of pages) {
      const { score, failing } = await accessibility(`${server.baseUrl}${page}`);
      if (score !== 1) below.push(`${page}: ${score}\n    ${failing.join('\n    ')}`);
    }
    expect(below.length, below.join('\n')).toBe(0);
  });
});
