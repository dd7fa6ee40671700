#!/usr/bin/env node
// Contract tests (docs/contracts.md):
// 1. regenerate pacts/ from the consumer tests (the real src/api modules against Pact mock servers);
// 2. verify every pact against the real server on a fresh temp database;
// 3. fail when the regenerated pacts differ from the committed ones.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pactDir = path.join(root, 'pacts');
const env = { ...process.env, PACT_DO_NOT_TRACK: 'true' };

function run(cmd, args) {
  const res = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

for (const file of readdirSync(pactDir)) if (file.endsWith('.json')) rmSync(path.join(pactDir, file));
run('npx', ['vitest', 'run', '--project', 'contract', 'tests/contract/consumer']);
run('npx', ['vitest', 'run', '--project', 'contract', 'tests/contract/provider']);

const status = spawnSync('git', ['status', '--porcelain', '--', 'pacts'], { cwd: root, encoding: 'utf8' });
if (status.status !== 0) {
  console.error('contract: git is needed to compare the regenerated pacts with the committed ones');
  process.exit(1);
}
if (status.stdout.trim() !== '') {
  console.error('contract: the regenerated pacts differ from the committed ones:\n' + status.stdout);
  spawnSync('git', ['--no-pager', 'diff', '--stat', '--', 'pacts'], { cwd: root, stdio: 'inherit' });
  console.error('Run `npm run test:contract` and commit pacts/ together with the change that altered them.');
  process.exit(1);
}
console.log('contract: pacts regenerated, verified against the server, and identical to the committed ones');
