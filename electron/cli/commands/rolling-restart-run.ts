import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import {
  checksOf,
  initialMachine,
  MgmClusterPort,
  planEta,
  planRollingRestart,
  PROGRESS_EVERY_MS,
  PlanStore,
  readPlanInputs,
  resumeAfterRestart,
  type ClusterIdentity,
  type PlanInputs,
  RollingConductor,
  type RestartOrder,
  type RollMachine,
} from '../../engine/features/rolling/index.js';
import { withDeadline } from '../deadline.js';
import { EXIT } from '../exit-codes.js';
import { connectstringFrom } from '../options/options.js';
import { endpointFrom } from '../serve-endpoint.js';
import { counted, planEvent, printEvent } from '../rolling/rolling-output.js';
import { alertCheck, withWatchedAlerts } from '../rolling/rolling-alerts.js';
import { RollingRunMarks } from '../rolling/rolling-run-marks.js';
import { printText } from '../format/terminal-text.js';
import { mgmTlsFrom, type TlsCliOptions } from '../options/tls-options.js';

export interface RollingOpts extends TlsCliOptions {
  connectstring?: string;
  timeout: number;
  allowActions?: boolean;
  nodes?: number[];
  order: RestartOrder;
  pause: number;
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
  /** Default: one file per cluster under ~/.ndbtop/rolling-restart/, named by the cluster's identity. */
  stateFile?: string;
  resume?: boolean;
  skip?: boolean;
  abort?: boolean;
  pollInterval: number;
  leaveTimeout: number;
  notStartedTimeout: number;
  stepTimeout: number;
  markUrl?: string;
  token?: string;
  backupRunning: 'wait' | 'halt';
  redoLimit: number;
  gcpLagLimit: number;
  allowUnchecked?: boolean;
}

/** The operator's answer; an input that ends before one (no terminal, nothing piped) is a no, said as such. */
async function confirm(question: string): Promise<'yes' | 'no' | 'closed'> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const closed = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
  try {
    const answer = await Promise.race([rl.question(question), closed]);
    if (answer === null) return 'closed';
    return /^y(es)?$/i.test(answer.trim()) ? 'yes' : 'no';
  } finally {
    rl.close();
  }
}

/** A refusal in words, without the usage text commander adds to its own errors. */
function refuse(text: string, code: number): void {
  printText(process.stderr, `ndbtop rolling-restart: ${text}\n`);
  process.exitCode = code;
}

const ACTIVE = new Set(['checking', 'restarting', 'waiting', 'pausing', 'halted']);

/** Where plans were recorded before they were kept per cluster: read only to say it is not applied. */
const LEGACY_STATE_FILE = join(homedir(), '.ndbtop', 'rolling-restart.json');

/** This cluster's state file: --state-file, else one per cluster named by its identity. */
function stateFileFor(opts: RollingOpts, cluster: ClusterIdentity): string {
  return opts.stateFile ?? join(homedir(), '.ndbtop', 'rolling-restart', `${cluster.key}.json`);
}

/** The cluster as it is now, read over the management protocol: the plan's inputs and the cluster's identity. */
async function readCluster(opts: RollingOpts): Promise<PlanInputs> {
  const { hosts } = connectstringFrom(opts);
  const client = new MgmClient({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, reconnect: false, tls: mgmTlsFrom(opts) });
  try {
    return await withDeadline(opts.timeout, 'ndbtop rolling-restart', async (signal) => {
      await client.connect(signal);
      return readPlanInputs(client, { signal });
    });
  } finally {
    client.close();
  }
}

/** A new plan from the cluster as read; null (after saying why) when none can be made. */
function newPlan(opts: RollingOpts, { cluster: _identity, arbitration: _candidates, ...inputs }: PlanInputs): RollMachine | null {
  const { hosts } = connectstringFrom(opts);
  const out = planRollingRestart({
    id: randomUUID(),
    cluster: opts.connectstring ?? hosts.map((h) => `${h.host}:${h.port}`).join(','),
    createdAt: Date.now(),
    ...inputs,
    ...(opts.nodes ? { chosen: opts.nodes } : {}),
    order: opts.order,
    pauseMs: opts.pause,
    limits: { leaveMs: opts.leaveTimeout, notStartedMs: opts.notStartedTimeout, stepMs: opts.stepTimeout },
    checks: { backup: opts.backupRunning, redoLimitPct: opts.redoLimit, gcpLagMs: opts.gcpLagLimit, allowUnchecked: opts.allowUnchecked === true },
  });
  if (out.ok) return initialMachine(out.plan);
  refuse(`no plan can be made:\n  ${out.reasons.join('\n  ')}`, EXIT.USAGE);
  return null;
}

/** A plan left in the file of an earlier ndbtop (not per cluster) is never this cluster's: said once, never written. */
function noteLegacy(opts: RollingOpts, cluster: ClusterIdentity): void {
  if (opts.stateFile !== undefined) return;
  let loaded;
  try {
    loaded = new PlanStore(LEGACY_STATE_FILE, cluster).load();
  } catch {
    return;
  }
  if (loaded.kind === 'foreign' && loaded.active) {
    printEvent(opts.json === true, { event: 'note', step: 0, text: `${loaded.why} (leave it for the ndbtop that made it, or delete it once that plan is over)` });
  }
}

/** --allow-unchecked given with --resume or --skip: the recorded plan lets unchecked checks go from now on (never the reverse). */
function allowingUnchecked(m: RollMachine, opts: RollingOpts): RollMachine {
  return opts.allowUnchecked ? { ...m, plan: { ...m.plan, checks: { ...checksOf(m.plan), allowUnchecked: true } } } : m;
}

/** `ndbtop rolling-restart`, once its options are read: loaded only when that command runs (the rolling room and its plan store). */
export async function rollingRestart(opts: RollingOpts): Promise<void> {
  const acts = [opts.resume, opts.skip, opts.abort].filter(Boolean).length;
  if (acts > 1) return refuse('choose one of --resume, --skip, --abort', EXIT.USAGE);
  if (opts.dryRun && acts > 0) return refuse('--dry-run shows a new plan and reads no recorded one: leave out --resume, --skip and --abort', EXIT.USAGE);
  if (!opts.allowActions && !opts.dryRun && !opts.abort) {
    return refuse('refused: restarting data nodes is an operator action; add --allow-actions (or --dry-run to see the plan)', EXIT.USAGE);
  }
  const cluster = await readCluster(opts);
  if (opts.dryRun) {
    // Reads no state file and writes none: a dry run shows what this cluster would get now, nothing recorded.
    const machine = newPlan(opts, cluster);
    if (machine) printEvent(opts.json === true, planEvent(machine.plan, planEta(machine.plan, []), alertCheck(opts.markUrl)));
    return;
  }
  const file = stateFileFor(opts, cluster.cluster);
  const store = new PlanStore(file, cluster.cluster);
  const loaded = store.load();
  if (loaded.kind === 'foreign') return refuse(`${loaded.why}; nothing was sent or written (choose another --state-file)`, EXIT.USAGE);
  noteLegacy(opts, cluster.cluster);
  const stored = loaded.kind === 'ours' ? loaded.stored : null;
  const history = stored?.history ?? [];
  let machine: RollMachine | null = stored?.machine && ACTIVE.has(stored.machine.phase.kind) ? stored.machine : null;
  if (machine) {
    machine = resumeAfterRestart(allowingUnchecked(machine, opts), Date.now());
    store.save({ machine, history });
    const done = machine.results.length;
    printEvent(opts.json === true, planEvent(machine.plan, planEta(machine.plan, history, [], done), alertCheck(opts.markUrl), done));
    if (machine.phase.kind === 'halted') printEvent(opts.json === true, { event: 'halted', step: machine.step + 1, nodes: machine.plan.steps[machine.step] ?? [], code: machine.phase.code, reason: machine.phase.reason });
    if (acts === 0) return refuse(`a rolling restart is in progress (${file}): --resume, --skip or --abort it first`, EXIT.HALTED);
  } else if (acts > 0) {
    return refuse(`no rolling restart of ${cluster.cluster.label} in progress in ${file}`, EXIT.USAGE);
  } else {
    machine = newPlan(opts, cluster);
    if (!machine) return;
    printEvent(opts.json === true, planEvent(machine.plan, planEta(machine.plan, history), alertCheck(opts.markUrl)));
    const answer = opts.yes ? 'yes' : await confirm(`Restart ${counted(machine.plan.steps.flat().length, 'data node')} in ${counted(machine.plan.steps.length, 'step')}? [y/N] `);
    if (answer !== 'yes') {
      const why = answer === 'closed' ? 'the input ended before an answer (add --yes to run without asking)' : 'not confirmed';
      return refuse(`nothing done: ${why}`, EXIT.DECLINED);
    }
  }
  const final = await conduct(machine, opts, store, history, stored?.machine?.plan.id === machine.plan.id ? (stored.runId ?? null) : null, cluster.arbitration);
  process.exitCode = final.phase.kind === 'halted' ? EXIT.HALTED : EXIT.OK;
}

/** Runs the plan until it is done, halted or aborted; the first Ctrl-C pauses after the running step, the second leaves. */
async function conduct(machine: RollMachine, opts: RollingOpts, store: PlanStore, history: readonly number[], runId: string | null, arbitration: PlanInputs['arbitration']): Promise<RollMachine> {
  const { hosts } = connectstringFrom(opts);
  const port = new MgmClusterPort({ hosts, tls: mgmTlsFrom(opts), connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, arbitration });
  const watching = opts.markUrl ? endpointFrom({ url: opts.markUrl, ...(opts.token ? { token: opts.token } : {}) }) : null;
  const latest = { m: machine, h: [...history] };
  const marks = watching ? new RollingRunMarks(watching, machine.plan, runId, {
        failed: (text) => printEvent(opts.json === true, { event: 'note', step: latest.m.step + 1, text }),
        marked: () => save(),
      }) : null;
  const save = (): void => store.save({ machine: latest.m, history: latest.h, runId: marks?.runId ?? null });
  const conductor = new RollingConductor(machine, {
    port: watching ? withWatchedAlerts(port, watching) : port,
    history,
    pollIntervalMs: opts.pollInterval,
    progressEveryMs: PROGRESS_EVERY_MS,
    sink: {
      persist: (m, h) => {
        latest.m = m;
        latest.h = [...h];
        save();
      },
    },
  });
  conductor.onEvent((e, m) => {
    printEvent(opts.json === true, e);
    marks?.event(e, m);
  });
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.HALTED);
    printText(process.stderr, 'pausing after the running step (Ctrl-C again to leave now; the plan stays recorded)\n');
    conductor.input({ kind: 'pause' });
  };
  process.on('SIGINT', onSigint);
  try {
    conductor.follow();
    conductor.input({ kind: opts.abort ? 'abort' : opts.skip ? 'skip' : opts.resume ? 'resume' : 'start' });
    const final = await conductor.settled();
    // The run's id came back after the state was last written: keep it, so a resume marks the same run.
    if (marks) {
      await marks.settled();
      save();
    }
    return final;
  } finally {
    process.off('SIGINT', onSigint);
    conductor.close();
    port.close();
  }
}
