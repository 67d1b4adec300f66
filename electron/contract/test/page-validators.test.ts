import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createEngine } from '../../engine/create-engine.js';
import { waitFor } from '../../engine/test/helpers.js';
import { REQUESTS, type PushMessage, type RequestName } from '../schemas/channels.js';
import { ContractError } from '../page-safe/contract-error.js';
import type { PageValidators } from '../page-safe/page-validators.js';
import { zodPageValidators } from '../schemas/validate.js';
import { loadCompiledPageValidators } from './compiled-validators.js';

/** A message as the page receives it: a push, or the response to a named request. */
interface Sample {
  what: 'push' | RequestName;
  value: unknown;
}

function verdict(validators: PageValidators, sample: Sample): string {
  try {
    if (sample.what === 'push') validators.push(sample.value);
    else validators.response(sample.what, sample.value);
    return 'accepted';
  } catch (err) {
    assert.ok(err instanceof ContractError, `a rejection is a ContractError, not ${String(err)}`);
    return 'rejected';
  }
}

/** Real traffic: an engine on a simulated cluster whose data node fails, and a run started, marked and stopped on it. */
async function realTraffic(): Promise<Sample[]> {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 200, simulator: { scenario: 'node-failure', dataNodes: 4, speed: 8 } });
  const pushes: PushMessage[] = [];
  const off = engine.subscribe((m) => pushes.push(JSON.parse(JSON.stringify(m)) as PushMessage));
  try {
    const h = engine.handlers;
    await waitFor('rates, an event and an alert pushed', () => ['delta', 'events', 'history', 'alert'].every((type) => pushes.some((m) => m.type === type)), 60_000);
    const run = await h.startRun({ name: 'A', phase: 'warm-up' });
    await h.markPhase({ name: 'steady' });
    await h.stopRun({});
    const clusterId = (await h.listClusters({}))[0]?.clusterId;
    const answers: { [K in RequestName]?: unknown } = {
      getAppInfo: await h.getAppInfo({}),
      listClusters: await h.listClusters({}),
      getSnapshot: await h.getSnapshot({}),
      getClusterConfig: await waitFor('the configuration', () => h.getClusterConfig({})),
      getCounters: await h.getCounters({}),
      getHistory: await h.getHistory({ metrics: ['transactions', 'dataMemory'], nodeIds: [1, 2], maxPoints: 200 }),
      getTimeline: await h.getTimeline({}),
      getEvents: await h.getEvents({ limit: 500 }),
      previewAction: await h.previewAction({ clusterId, action: { kind: 'restart', nodeId: 2, initial: false, noStart: false, abort: false } }),
      getSettings: await h.getSettings({}),
      exportHistory: await h.exportHistory({ format: 'csv' }),
      getRunReports: await h.getRunReports({ runIds: [run.id], figure: 'transactions' }),
      startRun: run,
    };
    return [
      ...pushes.map((value) => ({ what: 'push' as const, value })),
      ...Object.entries(answers).map(([what, value]) => ({ what: what as RequestName, value: JSON.parse(JSON.stringify(value)) as unknown })),
    ];
  } finally {
    off();
    await engine.close();
  }
}

const validators = loadCompiledPageValidators();
const traffic = realTraffic();

test('the page has a compiled check for every request of the contract, and no other', async () => {
  assert.deepEqual([...(await validators).requestNames].sort(), Object.keys(REQUESTS).sort());
});

test('the compiled checks accept every message a real engine sends, as zod does', async () => {
  const page = await validators;
  const samples = await traffic;
  assert.ok(samples.length > 20, `${samples.length} samples`);
  for (const sample of samples) {
    assert.equal(verdict(zodPageValidators, sample), 'accepted', `zod on ${sample.what}`);
    assert.equal(verdict(page, sample), 'accepted', `compiled on ${sample.what}`);
  }
});

const REPLACEMENTS: unknown[] = [undefined, null, -1, 0, 1.5, 2 ** 53, Number.MAX_VALUE, '', 'BOGUS', 'x'.repeat(3000), true, [], {}, [null], { extra: 1 }];

/** A copy of `value` with the place `choices` leads to deleted (undefined) or replaced; the walk stops at a leaf. */
function mutate(value: unknown, choices: number[], replacement: unknown): unknown {
  const copy = structuredClone(value);
  let parent: Record<string, unknown> | unknown[] | null = null;
  let key: string | number = '';
  let here: unknown = copy;
  for (const choice of choices) {
    const keys = here !== null && typeof here === 'object' ? Object.keys(here) : [];
    if (keys.length === 0) break;
    parent = here as Record<string, unknown>;
    key = Array.isArray(here) ? choice % keys.length : (keys[choice % keys.length] ?? '');
    here = (here as Record<string, unknown>)[key];
  }
  if (parent === null) return replacement;
  if (replacement === undefined && !Array.isArray(parent)) delete parent[key as string];
  else (parent as Record<string | number, unknown>)[key] = replacement;
  return copy;
}

test('on damaged messages the compiled checks give zod\'s verdict: whatever zod refuses, the page refuses', async () => {
  const page = await validators;
  const samples = await traffic;
  let rejected = 0;
  fc.assert(
    fc.property(fc.nat(samples.length - 1), fc.array(fc.nat(), { maxLength: 12 }), fc.constantFrom(...REPLACEMENTS), (index, choices, replacement) => {
      const sample = samples[index] as Sample;
      const damaged = { what: sample.what, value: mutate(sample.value, choices, replacement) };
      const expected = verdict(zodPageValidators, damaged);
      if (expected === 'rejected') rejected++;
      assert.equal(verdict(page, damaged), expected, `${damaged.what} at ${choices.join('/')} set to ${JSON.stringify(replacement)?.slice(0, 40)}`);
    }),
    { numRuns: 3000 },
  );
  // Most damage is refused; a test whose mutations all pass unnoticed would prove nothing.
  assert.ok(rejected > 1500, `${rejected} of 3000 damaged messages refused`);
});

test('a refused push names where it went wrong, as zod does', async () => {
  const page = await validators;
  const answer = (await traffic).find((s) => s.what === 'getSnapshot')?.value as { nodes: { status: string }[] } | undefined;
  assert.ok(answer?.nodes[1]);
  const bad = structuredClone(answer);
  (bad.nodes[1] as { status: string }).status = 'BOGUS';
  for (const v of [zodPageValidators, page]) {
    assert.throws(() => v.push({ type: 'snapshot', version: 1, snapshot: bad }), /^ContractError: invalid push message at snapshot\.nodes\.1\.status: /);
    assert.throws(() => v.response('getSnapshot', { ...bad, nodes: 'none' }), /^ContractError: invalid response to getSnapshot at nodes: /);
  }
});
