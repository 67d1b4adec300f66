import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import {
  DEFAULT_LIMITS,
  initialMachine,
  MgmClusterPort,
  planEta,
  planRollingRestart,
  PlanStore,
  readPlanInputs,
  resumeAfterRestart,
  RollingConductor,
  type RestartOrder,
  type RollMachine,
} from '../../engine/rolling/index.js';
import { withDeadline } from '../deadline.js';
import { EXIT } from '../exit-codes.js';
import { addConnectOptions, connectstringFrom, intOption } from '../options.js';
import { endpointFrom } from '../serve-endpoint.js';
import { counted, planEvent, printEvent } from '../rolling-output.js';
import { alertCheck, withWatchedAlerts } from '../rolling-alerts.js';
import { RollingRunMarks } from '../rolling-run-marks.js';
import { printText } from '../terminal-text.js';
import { addMgmTlsOptions, mgmTlsFrom, type TlsCliOptions } from '../tls-options.js';

interface RollingOpts extends TlsCliOptions {
  connectstring?: string;
  timeout: number;
  allowActions?: boolean;
  nodes?: number[];
  order: RestartOrder;
  pause: number;
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
  stateFile: string;
  resume?: boolean;
  skip?: boolean;
  abort?: boolean;
  pollInterval: number;
  leaveTimeout: number;
  notStartedTimeout: number;
  stepTimeout: number;
  markUrl?: string;
  token?: string;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30s`, `2m`, `500ms`, `1h`; a bare number is seconds. */
export function durationOption(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('expected a duration such as 30s, 2m, 500ms or 1h');
  return Math.round(Number(m[1]) * (UNITS[m[2] ?? 's'] ?? 1000));
}

function nodeList(value: string): number[] {
  const ids = value.split(',').map((s) => s.trim());
  if (ids.some((s) => !/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 255)) throw new InvalidArgumentError('expected node ids 1..255 separated by commas, e.g. 2,3');
  return ids.map(Number);
}

function orderOption(value: string): RestartOrder {
  if (value !== 'node-group' && value !== 'node-id') throw new InvalidArgumentError('expected node-group or node-id');
  return value;
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

/** Makes a new plan from the cluster as it is now; null (after saying why) when none can be made. */
async function newPlan(opts: RollingOpts): Promise<RollMachine | null> {
  const { hosts } = connectstringFrom(opts);
  const client = new MgmClient({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, reconnect: false, tls: mgmTlsFrom(opts) });
  try {
    const inputs = await withDeadline(opts.timeout, 'ndbtop rolling-restart', async (signal) => {
      await client.connect(signal);
      return readPlanInputs(client, { signal });
    });
    const out = planRollingRestart({
      id: randomUUID(),
      cluster: opts.connectstring ?? hosts.map((h) => `${h.host}:${h.port}`).join(','),
      createdAt: Date.now(),
      ...inputs,
      ...(opts.nodes ? { chosen: opts.nodes } : {}),
      order: opts.order,
      pauseMs: opts.pause,
      limits: { leaveMs: opts.leaveTimeout, notStartedMs: opts.notStartedTimeout, stepMs: opts.stepTimeout },
    });
    if (out.ok) return initialMachine(out.plan);
    refuse(`no plan can be made:\n  ${out.reasons.join('\n  ')}`, EXIT.USAGE);
    return null;
  } finally {
    client.close();
  }
}

export function registerRollingRestart(program: Command): void {
  addMgmTlsOptions(addConnectOptions(program.command('rolling-restart')))
    .description('restart data nodes step by step, checking before each step that no node group can go down')
    .option('--allow-actions', 'needed to restart anything (without it only --dry-run works)')
    .option('--nodes <ids>', 'data nodes to restart, e.g. 2,3 (default: all)', nodeList)
    .option('--order <order>', 'node-group: one node of each node group per step, in parallel; node-id: one node at a time', orderOption, 'node-group')
    .option('--pause <duration>', 'wait this long between steps, e.g. 30s', durationOption, 0)
    .option('--dry-run', 'print the plan and do nothing')
    .option('--yes', 'do not ask before the first step')
    .option('--json', 'one JSON object per line, each with an "event": plan, step, restarting, started, paused, halted, done')
    .option('--state-file <file>', 'where the plan in progress is recorded', join(homedir(), '.ndbtop', 'rolling-restart.json'))
    .option('--resume', 'continue the recorded plan at the step it halted in')
    .option('--skip', 'skip the step the recorded plan halted in, and continue with the next')
    .option('--abort', 'give up the recorded plan (nothing is sent)')
    .option('--poll-interval <ms>', 'how often get status is asked', intOption(50, 60_000), 1000)
    .option('--leave-timeout <duration>', 'halt when a node shows no sign of restarting this long after the reply', durationOption, DEFAULT_LIMITS.leaveMs)
    .option('--not-started-timeout <duration>', 'halt when a node waits in NOT_STARTED this long', durationOption, DEFAULT_LIMITS.notStartedMs)
    .option('--step-timeout <duration>', 'halt when a step is not complete this long after its restart', durationOption, DEFAULT_LIMITS.stepMs)
    .option('--mark-url <url>', 'mark the rolling restart as a run (a phase per step) on this recording ndbtop (ndbtop record --port, serve), and halt before a step while it has a critical alert active')
    .option('--token <token>', 'the --token of --mark-url (default: NDBTOP_TOKEN)')
    .addHelpText(
      'after',
      `
Before each step: every data node outside the step is STARTED, every node group keeps a live node, the
connection is live, and (with --mark-url) that ndbtop has no critical alert active. Then \`restart node v2\`
(normal restart: never initial, never force), and the step's nodes must go down and come back STARTED. Any
failed check halts before the next action (exit ${EXIT.HALTED}); the plan is recorded in --state-file, so a halted
or interrupted plan continues with --resume, --skip or --abort. Management servers are a manual step.
Exit: 0 done (or aborted), ${EXIT.HALTED} halted, ${EXIT.DECLINED} not confirmed (answered no, or the input ended:
nothing was sent), 2 usage or no plan possible.`,
    )
    .action(async (opts: RollingOpts) => {
      const acts = [opts.resume, opts.skip, opts.abort].filter(Boolean).length;
      if (acts > 1) return refuse('choose one of --resume, --skip, --abort', EXIT.USAGE);
      if (!opts.allowActions && !opts.dryRun && !opts.abort) {
        return refuse('refused: restarting data nodes is an operator action; add --allow-actions (or --dry-run to see the plan)', EXIT.USAGE);
      }
      const store = new PlanStore(opts.stateFile);
      const stored = store.load();
      const history = stored?.history ?? [];
      let machine: RollMachine | null = stored?.machine && ACTIVE.has(stored.machine.phase.kind) ? stored.machine : null;
      if (machine) {
        machine = resumeAfterRestart(machine, Date.now());
        store.save({ machine, history });
        const done = machine.results.length;
        printEvent(opts.json === true, planEvent(machine.plan, planEta(machine.plan, history, null, done), alertCheck(opts.markUrl), done));
        if (machine.phase.kind === 'halted') printEvent(opts.json === true, { event: 'halted', step: machine.step + 1, nodes: machine.plan.steps[machine.step] ?? [], code: machine.phase.code, reason: machine.phase.reason });
        if (acts === 0) return refuse(`a rolling restart is in progress (${opts.stateFile}): --resume, --skip or --abort it first`, EXIT.HALTED);
      } else if (acts > 0) {
        return refuse(`no rolling restart in progress in ${opts.stateFile}`, EXIT.USAGE);
      } else {
        machine = await newPlan(opts);
        if (!machine) return;
        printEvent(opts.json === true, planEvent(machine.plan, planEta(machine.plan, history), alertCheck(opts.markUrl)));
        if (opts.dryRun) return;
        const answer = opts.yes ? 'yes' : await confirm(`Restart ${counted(machine.plan.steps.flat().length, 'data node')} in ${counted(machine.plan.steps.length, 'step')}? [y/N] `);
        if (answer !== 'yes') {
          const why = answer === 'closed' ? 'the input ended before an answer (add --yes to run without asking)' : 'not confirmed';
          return refuse(`nothing done: ${why}`, EXIT.DECLINED);
        }
      }
      const final = await conduct(machine, opts, store, history, stored?.machine?.plan.id === machine.plan.id ? (stored.runId ?? null) : null);
      process.exitCode = final.phase.kind === 'halted' ? EXIT.HALTED : EXIT.OK;
    });
}

/** Runs the plan until it is done, halted or aborted; the first Ctrl-C pauses after the running step, the second leaves. */
async function conduct(machine: RollMachine, opts: RollingOpts, store: PlanStore, history: readonly number[], runId: string | null): Promise<RollMachine> {
  const { hosts } = connectstringFrom(opts);
  const port = new MgmClusterPort({ hosts, tls: mgmTlsFrom(opts), connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout });
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
