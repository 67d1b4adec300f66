import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEPLOY } from './prometheus-process.js';

export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Array<{ expr?: string; refId: string }>;
}

export interface Dashboard {
  uid: string;
  panels: DashboardPanel[];
  templating: { list: Array<{ name: string; type: string; query?: unknown; definition?: string }> };
  annotations: { list: Array<{ name: string; expr?: string }> };
}

export function readDashboard(): Dashboard {
  return JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'ndbtop-dashboard.json'), 'utf8')) as Dashboard;
}

/** Every PromQL expression in the dashboard (panels and annotations), where it comes from, Grafana's variables filled in. */
export function dashboardQueries(dashboard: Dashboard, cluster: string, rateInterval: string): Array<{ where: string; expr: string }> {
  const fill = (expr: string): string => expr.replaceAll('$__rate_interval', rateInterval).replaceAll('$cluster', cluster);
  return [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).filter((t) => t.expr).map((t) => ({ where: `panel ${p.id} "${p.title}" ${t.refId}`, expr: fill(t.expr ?? '') }))),
    ...dashboard.annotations.list.filter((a) => a.expr).map((a) => ({ where: `annotation "${a.name}"`, expr: fill(a.expr ?? '') })),
  ];
}
