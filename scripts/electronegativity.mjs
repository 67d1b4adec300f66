// Electronegativity (Doyensec's Electron security scanner) over electron/, failing on any finding. Its CLI
// cannot start next to commander 14 (it relies on an undeclared commander 2 and calls `commander.version`), so
// the scanner's own runner is called directly: the same checks, the results as data. Offline it cannot fetch
// translations or Electron's release list; both are optional and it says so and carries on.
//
// The scanner reads a CSP only from string literals; ours is built by contentSecurityPolicy() (one source for
// the desktop shell and serve mode), so the CSPs actually sent are evaluated here with the scanner's own CSP
// evaluator: definite weaknesses (HIGH, SYNTAX, MEDIUM) fail like its WEAK_CSP finding does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import process from 'node:process';
import { contentSecurityPolicy } from '../electron/serve/http/security-headers.ts';

const require = createRequire(import.meta.url);
const run = require('@doyensec/electronegativity/dist/runner.js');
const csp = require('@doyensec/csp-evaluator');
const electronVersion = require('electron/package.json').version;

const input = resolve(process.argv[2] ?? 'electron');
const result = await run(
  { input, customScan: [], excludeFromScan: [], isRelative: true, isVerbose: false, electronVersionOverride: electronVersion, parserPlugins: [] },
  false,
);

const problems = [];
for (const e of result.errors.filter((e) => !e.tolerable)) problems.push(`could not parse ${e.file}: ${e.message}`);
for (const i of result.issues) problems.push(`${i.id} ${i.file}:${i.location.line}:${i.location.column} ${i.description}${i.manualReview ? ' (manual review)' : ''}`);

const DEFINITE = new Set([csp.severities.HIGH, csp.severities.SYNTAX, csp.severities.MEDIUM]);
const policies = {
  'app:// responses, onHeadersReceived and serve mode': contentSecurityPolicy(),
};
const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync('renderer/index.html', 'utf8'));
if (meta) policies['renderer/index.html <meta>'] = meta[1];
const notes = [];
for (const [where, policy] of Object.entries(policies)) {
  for (const f of new csp.CspEvaluator(new csp.CspParser(policy).csp, csp.Version.CSP3).evaluate()) {
    const line = `CSP of ${where}: ${f.directive}: ${f.description}`;
    if (DEFINITE.has(f.severity)) problems.push(line);
    else notes.push(line);
  }
}

console.log(`electronegativity ${require('@doyensec/electronegativity/package.json').version} on ${input} (Electron ${electronVersion}): ${result.globalChecks} global and ${result.atomicChecks} atomic checks`);
for (const n of notes) console.log(`note: ${n}`);
if (result.globalChecks + result.atomicChecks === 0) problems.push('no checks were loaded');
if (problems.length > 0) {
  for (const p of problems) console.error(`finding: ${p}`);
  console.error(`${problems.length} finding(s)`);
  process.exit(1);
}
console.log('0 findings');
