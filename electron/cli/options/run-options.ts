import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_COLLAPSE, type CollapseConfig } from '../../engine/features/runs/collapse.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "10m", "90s", "1h", "500ms"; a bare number is seconds. */
export function durationOption(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = m ? Number(m[1]) * (UNITS[m[2] ?? 's'] ?? 1000) : NaN;
  if (!(ms > 0) || !Number.isFinite(ms)) throw new InvalidArgumentError('expected a duration such as 90s, 10m or 1h');
  return Math.round(ms);
}

/** Repeatable `--tag key=value`. */
export function collectTag(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const i = value.indexOf('=');
  if (i <= 0) throw new InvalidArgumentError('expected key=value, e.g. compress=on');
  return { ...previous, [value.slice(0, i)]: value.slice(i + 1) };
}

function percentOption(value: string): number {
  const n = Number(value.replace(/%$/, ''));
  if (!(n > 0 && n < 100)) throw new InvalidArgumentError('expected a percentage between 0 and 100');
  return n;
}

export interface CollapseOpts {
  collapseDrop: number;
  collapseWindow: number;
}

export function addCollapseOptions(command: Command): Command {
  return command
    .option('--collapse-drop <percent>', 'throughput collapse alert: a fall by more than this share', percentOption, DEFAULT_COLLAPSE.dropShare * 100)
    .option('--collapse-window <duration>', 'throughput collapse alert: … within this long', durationOption, DEFAULT_COLLAPSE.windowMs);
}

export function collapseConfig(opts: CollapseOpts): CollapseConfig {
  return { dropShare: opts.collapseDrop / 100, windowMs: opts.collapseWindow };
}
