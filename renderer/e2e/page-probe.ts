import type { Page } from 'playwright-core';

/**
 * Installed in the page: records every value the hooks' attributes take (node status, start phase while STARTING,
 * node-group health, connection state), so a test sees short states that polling from outside could miss.
 */
const RECORDER = `(() => {
  const seen = (window.__seen = { status: {}, phase: {}, health: {}, conn: [] });
  const add = (map, key, value) => {
    const list = (map[key] ??= []);
    if (list[list.length - 1] !== value) list.push(value);
  };
  const scan = () => {
    for (const el of document.querySelectorAll('[data-testid^="node-"][data-status]')) {
      const id = el.dataset.testid.slice(5);
      add(seen.status, id, el.dataset.status);
      // While SHUTTING_DOWN the same field is the stop level (spec §8.3), not a start phase.
      if (el.dataset.status === 'STARTING') add(seen.phase, id, Number(el.dataset.startPhase));
    }
    for (const el of document.querySelectorAll('[data-testid^="nodegroup-"]')) add(seen.health, el.dataset.testid.slice(10), el.dataset.health);
    const conn = document.querySelector('[data-testid="connection-state"]');
    if (conn && seen.conn[seen.conn.length - 1] !== conn.dataset.state) seen.conn.push(conn.dataset.state);
  };
  new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, attributes: true });
  scan();
})()`;

export interface Seen {
  status: Record<string, string[]>;
  phase: Record<string, number[]>;
  health: Record<string, string[]>;
  conn: string[];
}

export async function recordAttributes(page: Page): Promise<void> {
  await page.evaluate(RECORDER);
}

export async function seen(page: Page): Promise<Seen> {
  return (await page.evaluate('window.__seen')) as Seen;
}

export async function attr(page: Page, testId: string, name: string): Promise<string | null> {
  return page.getAttribute(`[data-testid="${testId}"]`, name, { timeout: 30_000 });
}
