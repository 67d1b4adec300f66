import type { Page } from 'playwright-core';
import type { AlertHistory, ClusterSnapshot, Incident, IncidentList } from '../../../electron/contract/index.js';
import type { Stack } from '../harness.js';
import type { DomView, Truth } from './frame.js';

/**
 * Read in the page in one evaluation, so every panel is seen at the same instant. As text: this module is
 * type-checked without the DOM's types.
 */
const READ_DOM = `(() => {
  const q = (sel) => [...document.querySelectorAll(sel)];
  const text = (e) => (e.textContent ?? '').replace(/\\s+/g, ' ').trim();
  const num = (v) => Number(v ?? NaN);
  const old = (e) => !!e.closest('[data-old="true"], [data-stale="true"], .old, .stale, .card-old');
  const rolling = document.querySelector('[data-testid="rolling-restart"]');
  const etas = q('[data-testid="rolling-eta"]').flatMap((e) => [e.dataset.etaFrom ?? e.dataset.eta, e.dataset.etaTo ?? e.dataset.eta]).map(Number).filter((n) => n > 0);
  const figure = (where) => (e) => ({ where, text: text(e), stale: old(e) });
  const box = document.querySelector('[data-testid="throughput-chart"]');
  const axis = box?.querySelector('.recharts-xAxis .recharts-cartesian-axis-line');
  const chart = (() => {
    if (!box || !axis) return null;
    const x1 = Number(axis.getAttribute('x1')), x2 = Number(axis.getAttribute('x2'));
    const from = Number(box.dataset.from), until = Number(box.dataset.until);
    const time = (x) => Math.round(from + ((x - x1) / (x2 - x1)) * (until - from));
    // A line's path: "M x,y L x,y …", a new "M" where it breaks (a null between).
    const lines = [...box.querySelectorAll('.recharts-line')].flatMap((g) => {
      const d = g.querySelector('path.recharts-line-curve')?.getAttribute('d') ?? '';
      const series = g.querySelector('path.recharts-line-curve')?.getAttribute('name') ?? '';
      return d.split('M').filter(Boolean).map((run) => ({ series, times: [...run.matchAll(/(-?[\\d.]+)[ ,](-?[\\d.]+)/g)].map((m) => time(Number(m[1]))) }));
    });
    return { windowMs: Number(box.dataset.window), lines };
  })();
  return {
    view: document.querySelector('main')?.dataset.view ?? null,
    chart,
    cards: q('[data-testid="node-grid"] [data-testid^="node-"][data-status]').map((e) => ({
      nodeId: num(e.dataset.testid.slice(5)), status: e.dataset.status, startPhase: num(e.dataset.startPhase), old: old(e),
    })),
    restarting: q('[data-testid^="restarting-"]').map((e) => ({ nodeId: num(e.dataset.testid.slice(11)), status: e.dataset.status ?? '', startPhase: num(e.dataset.startPhase), text: text(e) })),
    rollingState: rolling?.dataset.state ?? null,
    phases: q('[data-testid^="phases-"]').map((e) => ({ nodeId: num(e.dataset.testid.slice(7)), current: e.dataset.current ?? '' })),
    banner: q('[data-testid="alert-rows"] > [data-testid="alert"], [data-testid="alert-rows"] > [data-testid="alert-group"]').map((e) => ({
      severity: e.dataset.severity, kind: e.dataset.kind, nodeId: e.dataset.node ? num(e.dataset.node) : null, text: text(e.querySelector('.alert-msg') ?? e),
    })),
    figures: [
      ...q('[data-testid="spark-value"]').map(figure('node rate')),
      ...q('.legend-value').map(figure('chart legend')),
      ...q('.headline-stat').map((e) => ({ where: 'headline tile', text: text(e.querySelector('.headline-value')) + ' ' + text(e.querySelector('.headline-label')), stale: old(e) })),
    ],
    eta: etas.length === 0 ? null : { min: Math.min(...etas), max: Math.max(...etas) },
    backups: (() => {
      const view = document.querySelector('[data-testid="backups-view"]');
      if (!view) return undefined;
      const run = view.querySelector('[data-testid="backup-running"]');
      const field = (name) => text(run?.querySelector('[data-field="' + name + '"]') ?? document.createElement('i'));
      const eta = run?.querySelector('[data-field="eta"]');
      const cells = (tr) => [...tr.querySelectorAll('td')].map(text);
      return {
        running: run ? {
          backupId: num(run.dataset.backupId), written: field('written'), rate: field('rate'), eta: field('eta'),
          etaFrom: eta?.dataset.etaFrom ? num(eta.dataset.etaFrom) : null, etaTo: eta?.dataset.etaTo ? num(eta.dataset.etaTo) : null,
          nodes: [...run.querySelectorAll('[data-testid="backup-nodes"] tbody tr')].map((tr) => { const c = cells(tr); return { nodeId: num(tr.dataset.node), written: c[1] ?? '', of: c[2] ?? '', records: c[4] ?? '' }; }),
        } : null,
        past: [...view.querySelectorAll('[data-testid="backup-past"] tbody tr')].map((tr) => { const c = cells(tr); return { backupId: num(tr.dataset.backup), outcome: c[1] ?? '', took: c[3] ?? '', size: c[4] ?? '', records: c[5] ?? '', rate: c[6] ?? '' }; }),
      };
    })(),
    incidents: (() => {
      const view = document.querySelector('[data-testid="incidents-view"]');
      if (!view) return undefined;
      const detail = view.querySelector('[data-testid="incident-detail"]');
      const cells = (tr) => [...tr.querySelectorAll('td')].map(text);
      return {
        rows: q('[data-testid="incident-row"]').map((e) => ({ id: e.dataset.incidentId ?? '', kind: e.dataset.kind ?? '', nodes: text(e.querySelector('.incident-nodes')), restart: text(e.querySelector('.incident-restart')) })),
        detail: detail ? {
          id: detail.dataset.incidentId ?? '',
          kind: detail.querySelector('[data-testid="incident-cause"]')?.dataset.kind ?? '',
          restart: text(detail.querySelector('[data-testid="incident-restart"]') ?? document.createElement('i')),
          marks: [...detail.querySelectorAll('[data-testid="incident-timeline"] tbody tr')].map((tr) => { const c = cells(tr); return { offset: c[0] ?? '', lane: tr.dataset.lane ?? '', text: c[2] ?? '' }; }),
          figures: [...detail.querySelectorAll('[data-testid="incident-figures"] tbody tr')].map((tr) => { const c = cells(tr); return { nodeId: num(c[0]), name: c[1] ?? '', last: c[2] ?? '', peak: c[3] ?? '' }; }),
        } : null,
      };
    })(),
    texts: (() => {
      // Every text on screen with a digit, as the element around it reads (its words give a number its meaning).
      const seen = new Set();
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!/\\d/.test(n.nodeValue ?? '')) continue;
        const el = n.parentElement;
        if (!el || seen.has(el) || el.closest('script, style, option, [aria-hidden="true"]')) continue;
        seen.add(el);
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) continue;
        if (getComputedStyle(el).visibility === 'hidden') continue;
        const where = el.closest('[data-testid]')?.dataset.testid ?? el.className?.baseVal ?? el.className ?? el.tagName;
        out.push({ where: String(where || el.tagName), text: text(el), context: el.parentElement ? text(el.parentElement) : '' });
      }
      return out;
    })(),
  };
})()`;

export function readDom(page: Page): Promise<DomView> {
  return page.evaluate(READ_DOM) as Promise<DomView>;
}

export async function readSnapshot(stack: Stack): Promise<ClusterSnapshot> {
  return (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
}

export async function readIncidents(stack: Stack): Promise<Incident[]> {
  return ((await (await fetch(new URL('/api/incidents', stack.url))).json()) as IncidentList).incidents;
}

export async function readHistory(stack: Stack): Promise<AlertHistory> {
  return (await (await fetch(new URL('/api/alerts/history', stack.url))).json()) as AlertHistory;
}

/** The simulator's model: ground truth of what the data nodes do. */
export function readTruth(stack: Stack, mgmdsUp: number): Truth {
  return {
    nodes: [...stack.simulator.model.data.values()].map((n) => ({ nodeId: n.id, status: n.status, startPhase: n.startPhase })),
    mgmdsUp,
  };
}

/** Presses the header's chart-window button `name` ("1m", "5m", …) and waits a frame for the page to redraw. */
export async function chooseWindow(page: Page, name: string): Promise<void> {
  await page.evaluate(`(() => {
    const b = [...document.querySelectorAll('button[aria-pressed]')].find((x) => x.textContent === ${JSON.stringify(name)});
    b?.click();
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  })()`);
}
