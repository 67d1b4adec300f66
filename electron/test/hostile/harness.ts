import { BEHAVIOURS, type Behaviour, type HostileCase } from '../../../native-mgm/test/hostile/behaviours.js';
import { HostileServer } from '../../../native-mgm/test/hostile/hostile-server.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { Outcome, Target } from './targets.js';

export interface FuzzOptions {
  cases: number;
  /** Index of the first case: runs `from` to `from + cases - 1`, so processes can share one long run (shards). */
  from?: number;
  targets: Target[];
  /** Given to each command as its timeout. */
  timeoutMs: number;
  concurrency: number;
  seed: number;
  /** Every behaviour once per target before the random part, so a short CI run still covers each. */
  everyBehaviourFirst?: boolean;
}

export interface Finding {
  target: string;
  c: HostileCase;
  outcome: Outcome | null;
  why: 'crash' | 'hang' | 'undocumented exit code';
}

export interface FuzzSummary {
  cases: number;
  findings: Finding[];
  byCode: Map<number, number>;
  /** Longest run past its command timeout, per target. */
  slowest: Map<string, number>;
  worstRssInProcess: number;
  worstRssChild: number;
  byBehaviour: Map<Behaviour, number>;
}

const DOCUMENTED = new Set<number>([EXIT.OK, EXIT.UNREACHABLE, EXIT.PROTOCOL, EXIT.COMMAND_FAILED, EXIT.TIMEOUT]);

/** Six in ten cases mutate honest replies; the rest are the named attacks. */
function caseFor(i: number, seed: number, everyFirst: number): HostileCase {
  const caseSeed = (Math.imul(seed ^ (i + 1), 0x9e3779b1) >>> 0) || 1;
  if (i < everyFirst) return { behaviour: BEHAVIOURS[i % BEHAVIOURS.length] ?? 'mutated', seed: caseSeed };
  const pick = caseSeed % 20;
  return { behaviour: pick < 12 ? 'mutated' : (BEHAVIOURS[pick % (BEHAVIOURS.length - 1)] ?? 'mutated'), seed: caseSeed };
}

/** Runs `cases` hostile cases, target i % targets, on `concurrency` servers at once; nothing here throws on a finding. */
export async function fuzz(o: FuzzOptions): Promise<FuzzSummary> {
  const summary: FuzzSummary = { cases: 0, findings: [], byCode: new Map(), slowest: new Map(), worstRssInProcess: 0, worstRssChild: 0, byBehaviour: new Map() };
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown): void => void uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  const rssTimer = setInterval(() => (summary.worstRssInProcess = Math.max(summary.worstRssInProcess, process.memoryUsage.rss())), 100);
  const everyFirst = o.everyBehaviourFirst ? BEHAVIOURS.length * o.targets.length : 0;
  const from = o.from ?? 0;
  const last = from + o.cases;
  let next = from;
  const worker = async (): Promise<void> => {
    const server = new HostileServer();
    await server.start();
    try {
      for (let i = next++; i < last; i = next++) {
        const c = caseFor(i, o.seed, everyFirst);
        const target = o.targets[Math.floor(i / (i < everyFirst ? BEHAVIOURS.length : 1)) % o.targets.length] ?? o.targets[0];
        if (!target) return;
        server.use(c);
        const before = uncaught.length;
        const outcome = await runBounded(target, server.connectstring, o.timeoutMs);
        summary.cases += 1;
        summary.byBehaviour.set(c.behaviour, (summary.byBehaviour.get(c.behaviour) ?? 0) + 1);
        if (outcome === null) {
          summary.findings.push({ target: target.name, c, outcome, why: 'hang' });
          continue;
        }
        summary.byCode.set(outcome.code, (summary.byCode.get(outcome.code) ?? 0) + 1);
        summary.slowest.set(target.name, Math.max(summary.slowest.get(target.name) ?? 0, outcome.ms - o.timeoutMs));
        summary.worstRssChild = Math.max(summary.worstRssChild, outcome.rssBytes ?? 0);
        if (outcome.crashed || uncaught.length > before) summary.findings.push({ target: target.name, c, outcome: { ...outcome, detail: `${outcome.detail ?? ''} ${uncaught.slice(before).map(String).join('; ')}` }, why: 'crash' });
        else if (!DOCUMENTED.has(outcome.code)) summary.findings.push({ target: target.name, c, outcome, why: 'undocumented exit code' });
      }
    } finally {
      server.use({ behaviour: 'mutated', seed: 1 });
      await server.close();
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    clearInterval(rssTimer);
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  }
  return summary;
}

/** The run's outcome, or null when it did not finish within its timeout plus the target's grace. */
async function runBounded(target: Target, connectstring: string, timeoutMs: number): Promise<Outcome | null> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<null>((r) => (timer = setTimeout(() => r(null), timeoutMs * 5 + target.graceMs)));
  try {
    return await Promise.race([target.run(connectstring, timeoutMs), hang]);
  } finally {
    clearTimeout(timer);
  }
}

export function report(s: FuzzSummary): string {
  const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;
  const codes = [...s.byCode].sort((a, b) => a[0] - b[0]).map(([c, n]) => `${c}:${n}`).join(' ');
  const slow = [...s.slowest].map(([t, ms]) => `${t} +${ms} ms`).join(', ');
  const lines = [
    `hostile server: ${s.cases} cases (${[...s.byBehaviour].map(([b, n]) => `${b} ${n}`).join(', ')})`,
    `  crashes ${s.findings.filter((f) => f.why === 'crash').length}, hangs ${s.findings.filter((f) => f.why === 'hang').length}, undocumented exit codes ${s.findings.filter((f) => f.why === 'undocumented exit code').length}`,
    `  exit codes ${codes}; longest past the timeout: ${slow}`,
    `  worst RSS: this process ${mb(s.worstRssInProcess)}, a CLI process ${mb(s.worstRssChild)}`,
    ...s.findings.slice(0, 10).map((f) => `  ${f.why}: ${f.target} ${f.c.behaviour} seed ${f.c.seed}: ${f.outcome ? `exit ${f.outcome.code} ${f.outcome.detail ?? ''}` : 'no end'}`),
  ];
  return lines.join('\n');
}
