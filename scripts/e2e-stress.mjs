#!/usr/bin/env node
// `npm run test:e2e:stress`: builds once, then runs the whole e2e suite RUNS times in a row (default
// 3) while LOAD busy threads keep the CPU saturated (default: one per core), to show that the
// suite waits for what a user waits for and does not depend on timing (docs/testing.md).
// Exit code 1 when any run fails; prints one line per run and a closing "N passed, N failed" line.
//
// Usage: node scripts/e2e-stress.mjs [--no-build]   (env: RUNS=3, LOAD=<cores>, LOAD=0 for no hog)
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { Worker } from 'node:worker_threads';
import { ROOT } from './lib/server-process.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const LOAD = Number(process.env.LOAD ?? availableParallelism());

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The CPU hog: busy loops in worker threads of this process, stopped when the runs end (and with it).
const hogs = Array.from({ length: LOAD }, () => new Worker('for (;;) {}', { eval: true }));
console.log(`e2e stress: ${RUNS} runs of the e2e suite with ${LOAD} busy thread(s) on ${availableParallelism()} core(s)`);

let passed = 0;
let failed = 0;
try {
  for (let run = 1; run <= RUNS; run++) {
    const started = Date.now();
    const result = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'e2e'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const summary = /Tests\s+(.*)$/m.exec(stripVTControlCharacters(result.stdout))?.[1]?.trim() ?? 'no summary';
    if (result.status === 0) {
      passed++;
      console.log(`run ${run}: passed in ${seconds} s (${summary})`);
    } else {
      failed++;
      console.log(`run ${run}: FAILED in ${seconds} s (${summary})`);
      process.stdout.write(result.stdout.slice(-8000));
      process.stderr.write(result.stderr.slice(-4000));
    }
  }
} finally {
  await Promise.all(hogs.map((w) => w.terminate()));
}
console.log(`${passed} passed, ${failed} failed`);
if (failed) process.exitCode = 1;
