import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type * as Platforms from '../../scripts/test-runner/test-platforms.mjs';
import type * as TestFiles from '../../scripts/test-runner/test-files.mjs';
import { ROOT as root } from '../../scripts/test-source.js';

// The test workflow cannot run here; what it asks of the runners is checked offline against the README's commands.
const yaml = createRequire(createRequire(import.meta.url).resolve('app-builder-lib'))('js-yaml') as { load(text: string): unknown };
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

interface Step {
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { strategy: { matrix: { include: Array<Record<string, string>> } }; env: Record<string, string>; steps: Step[] }>;
}

test('test workflow: the README test command on ubuntu-latest and windows-latest, on every push and pull request, on Node 20', () => {
  const workflow = yaml.load(read('.github/workflows/test.yml')) as Workflow;
  assert.ok('push' in workflow.on && 'pull_request' in workflow.on);
  const job = Object.values(workflow.jobs)[0];
  assert.ok(job);
  assert.deepEqual(job.strategy.matrix.include.map((i) => i.os).sort(), ['ubuntu-latest', 'windows-latest']);
  const runs = job.steps.map((s) => s.run ?? s.uses ?? '');
  assert.ok(runs.includes('npm test'));
  assert.ok(runs.some((r) => r.startsWith('npm ci')));
  assert.equal(job.steps.find((s) => s.uses?.startsWith('actions/setup-node'))?.with?.['node-version'], 20);
  assert.ok(read('README.md').includes('npm test '), 'the README names the same command');
  // Every runner gets a browser for the e2e files, and only a tool the matrix names may be missing.
  assert.equal(job.env.NDBTOP_CHROMIUM, '${{ matrix.chrome }}');
  for (const entry of job.strategy.matrix.include) assert.ok(entry.chrome && entry.chrome.toLowerCase().includes('chrome'), entry.os);
  assert.equal(job.strategy.matrix.include.find((i) => i.os === 'ubuntu-latest')?.['missing-ok'], '');
});

test('.ci/run installs every outside tool from scratch, then runs the README test command and the soak', () => {
  const script = read('.ci/run');
  for (const pkg of ['chromium', 'prometheus', 'openssl', 'mariadb-server', 'mariadb-client']) assert.match(script, new RegExp(`apt-get install .*\\b${pkg}\\b`));
  const commands = script.split('\n').filter((l) => /^npm /.test(l));
  assert.deepEqual(commands, ['npm ci --no-audit --no-fund', 'npm test', 'npm run test:soak']);
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  assert.ok(!pkg.scripts.test?.includes('soak'), 'the soak is not part of npm test');
  assert.match(pkg.scripts['test:soak'] ?? '', /bench\/soak\.ts --minutes 10/);
});

test('the files the runner leaves out on Windows exist and do check how a process handles a POSIX signal', async () => {
  // From the project's root: the runner's own .mjs is not in dist/, where npm test runs this file from.
  const { POSIX_ONLY } = (await import(pathToFileURL(join(root, 'scripts/test-runner/test-platforms.mjs')).href)) as typeof Platforms;
  assert.ok(Object.keys(POSIX_ONLY).length > 0);
  for (const [file, why] of Object.entries(POSIX_ONLY)) {
    assert.ok(why.length > 0, file);
    // SIGKILL ends a process on Windows too; the others are handled (or not) only on POSIX systems.
    assert.match(read(file), /'SIG(INT|TERM|STOP)'|SIGSTOP/, `${file} sends no signal Windows lacks`);
  }
});

test('a failed test is named at the end of the run with its error, from node:test output itself', async () => {
  const { failedTests } = (await import(pathToFileURL(join(root, 'scripts/test-runner/test-report.mjs')).href)) as {
    failedTests(text: string): Array<{ name: string; details: string[] }>;
  };
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-tap-'));
  try {
    const file = join(dir, 'failing.test.mjs');
    writeFileSync(
      file,
      `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n` +
        `test('outer', async (t) => { await t.test('inner fails', () => assert.equal(1, 2)); });\ntest('fine', () => {});\n`,
    );
    // Without NODE_TEST_CONTEXT, which node --test sets for its children and which turns their output into its own.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const tap = spawnSync(process.execPath, ['--test-reporter=tap', '--test', file], { encoding: 'utf8', env }).stdout;
    const failed = failedTests(tap);
    assert.deepEqual(
      failed.map((f) => f.name),
      ['inner fails'],
      'the subtest, not its parent again',
    );
    assert.ok(failed[0]?.details.includes('expected: 2') && failed[0].details.includes('actual: 1'), failed[0]?.details.join('\n'));
    assert.ok(failed[0]?.details.some((l) => l.startsWith('location:') && l.includes('failing.test.mjs:3')));
    assert.deepEqual(failedTests(tap.replace(/not ok/g, 'ok')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every test file has a committed timing, so a clean clone (CI) starts the long ones first', async () => {
  // A file missing there is guessed to be quick and runs last: a 90 s file did, and CI waited for it alone.
  const baseline = JSON.parse(read('scripts/test-runner/test-timings.json')) as Record<string, unknown>;
  // From the project's root, as the runner's own .mjs files are not in dist/.
  const { allTestFiles } = (await import(pathToFileURL(join(root, 'scripts/test-runner/test-files.mjs')).href)) as typeof TestFiles;
  const files = allTestFiles(root);
  assert.ok(files.length > 100);
  const missing = files.filter((f) => !(f in baseline));
  assert.deepEqual(missing, [], 'refresh it from a whole run: cp node_modules/.cache/ndbtop/test-timings.json scripts/test-runner/');
});
