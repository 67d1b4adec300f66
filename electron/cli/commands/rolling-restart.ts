import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_LIMITS } from '../../engine/features/rolling/plan/planner.js';
import { DEFAULT_CHECKS } from '../../engine/features/rolling/plan/ndb-checks.js';
import { PROGRESS_EVERY_MS } from '../../engine/features/rolling/execution/step-progress.js';
import type { RestartOrder } from '../../engine/features/rolling/types.js';
import { EXIT } from '../exit-codes.js';
import { addConnectOptions, intOption } from '../options/options.js';
import { addMgmTlsOptions } from '../options/tls-options.js';
import type { RollingOpts } from './rolling-restart-run.js';

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

function backupOption(value: string): 'wait' | 'halt' {
  if (value !== 'wait' && value !== 'halt') throw new InvalidArgumentError('expected wait or halt');
  return value;
}

function percentOption(value: string): number {
  const n = Number(value.replace(/%$/, ''));
  if (!Number.isFinite(n) || n < 1 || n > 100) throw new InvalidArgumentError('expected a percentage 1..100, e.g. 60');
  return n;
}

function orderOption(value: string): RestartOrder {
  if (value !== 'node-group' && value !== 'node-id') throw new InvalidArgumentError('expected node-group or node-id');
  return value;
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
    .option('--json', 'one JSON object per line, each with an "event": plan, step, restarting, note, waiting, started, paused, halted, done, aborted')
    .option('--state-file <file>', "where the plan in progress is recorded (default: ~/.ndbtop/rolling-restart/<cluster>.json, one per cluster, named by a hash of its configuration's name and data nodes)")
    .option('--resume', 'continue the recorded plan at the step it halted in')
    .option('--skip', 'skip the step the recorded plan halted in, and continue with the next')
    .option('--abort', 'give up the recorded plan (nothing is sent)')
    .option('--poll-interval <ms>', 'how often get status is asked', intOption(50, 60_000), 1000)
    .option('--leave-timeout <duration>', 'halt when a node shows no sign of restarting this long after the reply to its restart (or its loss)', durationOption, DEFAULT_LIMITS.leaveMs)
    .option('--not-started-timeout <duration>', 'halt when a node waits in NOT_STARTED this long', durationOption, DEFAULT_LIMITS.notStartedMs)
    .option('--step-timeout <duration>', 'halt when a step is not complete this long after its restart was sent, whether or not the reply came', durationOption, DEFAULT_LIMITS.stepMs)
    .option('--backup-running <what>', 'a backup running before a step: wait for it to end, or halt', backupOption, DEFAULT_CHECKS.backup)
    .option('--redo-limit <percent>', "halt before a step while the redo log of its nodes or their node groups' partners is filled over this", percentOption, DEFAULT_CHECKS.redoLimitPct)
    .option('--gcp-lag-limit <duration>', 'halt before a step while the last global checkpoint completed longer ago than this', durationOption, DEFAULT_CHECKS.gcpLagMs)
    .option('--allow-unchecked', 'let a step go when an NDB check cannot be made (the redo fill needs --mark-url of an ndbtop with an SQL source), said once per step; without it such a step halts')
    .option('--mark-url <url>', 'mark the rolling restart as a run (a phase per step) on this recording ndbtop (ndbtop record --port, serve), and halt before a step while it has a critical alert active')
    .option('--token <token>', 'the --token of --mark-url (default: NDBTOP_TOKEN)')
    .addHelpText(
      'after',
      `
Before each step: every data node outside the step is STARTED, every node group keeps a live node, the
connection is live, and (with --mark-url) that ndbtop has no critical alert active; and what NDB needs: no
backup running (REPORT BackupStatus; --backup-running wait|halt), the redo log of the step's nodes and their
partners under --redo-limit (ndbinfo's logspaces, read from the --mark-url ndbtop), the last global checkpoint
completed within --gcp-lag-limit (GlobalCheckpointCompleted events), and an arbitrator (ArbitState events, else a
connected node with ArbitrationRank 1 or 2). Each check's figure is printed (a "checked" line) before the restart;
a check that cannot be made halts unless --allow-unchecked. A step waiting for a backup goes on when it ends;
a halted one continues with --resume once its condition cleared. Then \`restart node v2\`
(normal restart: never initial, never force), and the step's nodes must go down and come back STARTED. The
reply to the restart is not needed for that: once get status shows the nodes went down and came back, the step
is done; a reply that does not come is waited for until --step-timeout at most. While it waits, a "waiting" line
every ${PROGRESS_EVERY_MS / 1000} s says for what. Any failed check or passed timeout halts before the next action (exit ${EXIT.HALTED}),
with the reason in words and a code: unsafe, refused, timeout, unreachable (the management server could not be
reached), operator or interrupted. The plan is recorded in --state-file, so a halted or interrupted plan continues
with --resume, --skip or --abort; the file names its cluster, and another cluster's plan is never shown or applied.
--dry-run reads and writes no state file. Management servers are a manual step.
Exit: 0 done (or aborted), ${EXIT.HALTED} halted, ${EXIT.DECLINED} not confirmed (answered no, or the input ended:
nothing was sent), 2 usage or no plan possible.`,
    )
    .action(async (opts: RollingOpts) => (await import('./rolling-restart-run.js')).rollingRestart(opts));
}
