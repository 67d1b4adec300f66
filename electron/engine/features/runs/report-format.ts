import type { Comparison, FigureStats, RunReport, RunReports } from '../../../contract/schemas/runs.js';
import { incidentLine } from '../../../contract/page-safe/incident-words.js';
import { formatChange } from '../../../contract/page-safe/format-change.js';
import { RUN_FIGURES } from '../../../contract/page-safe/vocabulary.js';
import { escapedJson, visibleLine, visibleText } from '../../../contract/page-safe/outside-text.js';
import { csvCell } from '../../facts/export/csv-cell.js';

export const REPORT_FORMATS = ['md', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Figures are printed whole from 100 up, else with two decimals, so a script can match them to the JSON. */
export function num(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '';
  return Math.abs(v) >= 100 ? String(Math.round(v)) : v.toFixed(2);
}

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : `${(v * 100).toFixed(1)} %`);
const clock = (t: number): string => new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const STAT_KEYS = ['mean', 'median', 'p5', 'p95', 'min', 'max'] as const;
/**
 * A name or text from outside (a run's name from an HTTP client, an event's text from a management server, anything
 * in a recording) as one markdown line: no control character, no line of its own, no cell border, and no link,
 * image or HTML for the viewer the report is opened in (`[x](http://…)`, `<img src=…>` show as typed).
 */
const md = (text: string): string => visibleLine(text).replace(/[|[\]<>]/g, (c) => `\\${c}`);
const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const rule = (n: number): string => row(Array.from({ length: n }, () => '---'));

function statsCells(s: FigureStats | null): string[] {
  return STAT_KEYS.map((k) => num(s?.[k]));
}

function markdownRun(r: RunReport): string[] {
  const s = r.summary;
  const tags = Object.entries(r.tags).map(([k, v]) => `${md(k)}=${md(v)}`).join(', ') || 'none';
  const out = [
    `## ${md(r.name)} (${md(r.id)})`,
    '',
    `${md(r.source)} · ${clock(r.start)} → ${r.end === null ? 'running' : clock(r.end)} (${seconds(s.durationMs)}) · data nodes: ${r.dataNodes} · tags: ${tags}`,
    '',
    row(['per second', ...STAT_KEYS]),
    rule(STAT_KEYS.length + 1),
    ...RUN_FIGURES.map((f) => row([f, ...statsCells(s[f])])),
    '',
    `Abort ratio: ${pct(s.abortRatio)}.`,
    '',
    `Bottleneck (${s.bottleneck.kind}): ${md(s.bottleneck.text)}.`,
    ...s.bottleneck.evidence.map((e) => `- ${md(e)}`),
  ];
  if (r.phases.length > 0) {
    out.push('', '### Phases', '', row(['phase', 'duration', 'steady after', 'transactions mean', 'median', 'p5', 'p95', 'reads mean', 'writes mean', 'abort ratio']), rule(10));
    for (const p of r.phases) {
      const ps = p.summary;
      out.push(row([md(p.name), seconds(ps.durationMs), ps.steadyAfterMs === null ? 'never' : seconds(ps.steadyAfterMs), num(ps.transactions?.mean), num(ps.transactions?.median), num(ps.transactions?.p5), num(ps.transactions?.p95), num(ps.reads?.mean), num(ps.writes?.mean), pct(ps.abortRatio)]));
    }
    out.push('', ...r.phases.map((p) => `- ${md(p.name)}: bottleneck ${p.summary.bottleneck.kind}: ${md(p.summary.bottleneck.text)}.`));
  }
  if (s.perNode.length > 0) {
    out.push('', '### Data nodes', '', row(['node', 'node group', 'transactions/s', 'share']), rule(4));
    for (const n of s.perNode) out.push(row([String(n.nodeId), n.nodeGroup === null ? '' : String(n.nodeGroup), num(n.meanTransactions), pct(n.share)]));
    if (s.imbalance) out.push('', `Slowest: node ${s.imbalance.slowestNodeId} at ${(s.imbalance.ratioToMean * 100).toFixed(1)} % of the mean.`);
  }
  if (s.restarts.length > 0) {
    out.push('', '### Data nodes down during the run', '', row(['node', 'down', 'back', 'took', 'phases (restart_info)']), rule(5));
    for (const x of s.restarts) {
      const phases = x.phases === null ? 'n/a' : x.phases.map((p) => `${md(p.words)} ${p.secs} s`).join('; ');
      out.push(row([String(x.nodeId), clock(x.downAt), x.upAt === null ? 'not back' : clock(x.upAt), x.upAt === null ? '' : seconds(x.upAt - x.downAt), phases]));
    }
  }
  if (r.incidents && r.incidents.length > 0) {
    out.push('', '### Incidents (why data nodes fell)', '');
    for (const i of [...r.incidents].reverse()) out.push(`- ${md(incidentLine(i, clock))}`);
  }
  out.push('', '### Node groups, warnings and alerts', '');
  const items = [
    ...s.nodeGroupTrouble.map((t) => ({ at: t.at, text: t.message })),
    ...s.alerts.filter((a) => a.kind !== 'node-group-degraded' && a.kind !== 'node-group-offline').map((a) => ({ at: a.at, text: `${a.severity}: ${a.message}${a.at < r.start ? ' (raised before the run, still active when it began)' : ''}` })),
    ...s.events.map((e) => ({ at: e.at, text: `${e.severity ?? ''} node ${e.sourceNodeId}: ${e.text}` })),
  ].sort((a, b) => a.at - b.at);
  if (items.length === 0) out.push('Node groups healthy throughout; no warnings or alerts.');
  for (const i of items) out.push(`- ${clock(i.at)} ${md(i.text)}`);
  return out;
}

function markdownComparison(c: Comparison, runs: readonly RunReport[]): string[] {
  const base = runs.find((r) => r.id === c.baselineId);
  const out = ['## Comparison', '', `Baseline (A): ${md(base?.name ?? c.baselineId)}; figures ${c.align === 'start' ? 'of the whole runs' : `of phase ${md(c.align)}`}; B/A of the means, p5..p95 in brackets.`, ''];
  if (base?.end === null) out.push(`**Baseline ${md(base.name)} is still running: its figures, and every ratio, will change.**`, '');
  out.push(row(['run', ...RUN_FIGURES]), rule(RUN_FIGURES.length + 1));
  for (const r of c.rows) {
    out.push(row([md(r.name), ...r.ratios.map((x) => (x.ratio === null ? 'n/a' : `${formatChange(x.ratio)} (${formatChange(x.low)}..${formatChange(x.high)})`))]));
  }
  out.push('', '### Scale-out', '', row(['run', 'data nodes', 'mean/s', 'perfect linear', 'efficiency']), rule(5));
  for (const p of c.scaleOut) out.push(row([md(p.name), String(p.dataNodes), num(p.mean), num(p.linear), pct(p.efficiency)]));
  return out;
}

function csv(reports: RunReports): string {
  const lines = [['kind', 'run_id', 'run_name', 'phase', 'figure', ...STAT_KEYS, 'samples', 'ratio', 'ratio_p5_p95_low', 'ratio_p5_p95_high'].join(',')];
  const stats = (r: RunReport, phase: string, figures: Partial<Record<(typeof RUN_FIGURES)[number], FigureStats | null>>): void => {
    for (const f of RUN_FIGURES) {
      const s = figures[f] ?? null;
      lines.push(['stats', r.id, r.name, phase, f, ...statsCells(s), s ? String(s.samples) : '', '', '', ''].map(csvCell).join(','));
    }
  };
  for (const r of reports.runs) {
    stats(r, '', r.summary);
    for (const p of r.phases) stats(r, p.name, p.summary);
  }
  for (const c of reports.comparison?.rows ?? []) {
    for (const x of c.ratios) lines.push(['ratio', c.runId, c.name, reports.comparison?.align ?? '', x.figure, '', '', '', '', '', '', '', x.ratio?.toFixed(4) ?? '', x.low?.toFixed(4) ?? '', x.high?.toFixed(4) ?? ''].map(csvCell).join(','));
  }
  return lines.join('\n') + '\n';
}

/** The report without the overlay series, which only the Runs view draws. */
export function reportJson(reports: RunReports): object {
  return { runs: reports.runs.map(({ series: _series, ...rest }) => rest), comparison: reports.comparison };
}

export function formatReports(reports: RunReports, format: ReportFormat): string {
  if (format === 'json') return escapedJson(reportJson(reports), 2) + '\n';
  if (format === 'csv') return csv(reports);
  const out = ['# ndbtop run report', ''];
  if (reports.runs.length === 0) out.push('No runs.', '');
  for (const r of reports.runs) out.push(...markdownRun(r), '');
  if (reports.comparison) out.push(...markdownComparison(reports.comparison, reports.runs), '');
  // Each outside string went through md(); this holds for whatever a later line forgets.
  return visibleText(out.join('\n'));
}
