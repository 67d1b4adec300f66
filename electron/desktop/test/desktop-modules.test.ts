import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { PushMessage } from '../../contract/schemas/channels.js';
import type { Alert } from '../../contract/schemas/events.js';
import { createAlertNotifier, type AlertNotification } from '../alert-notifier.js';
import { appProtocolReply } from '../app-protocol.js';
import { parseDesktopArgs } from '../desktop-args.js';
import { APP_ENTRY_URL, isTrustedSender } from '../ipc-guard.js';
import { buildMenuTemplate, viewUrl, type MenuItemSpec } from '../menu-template.js';
import { DEFAULT_WINDOW_STATE, loadWindowState, saveWindowState, visiblePosition } from '../window-state.js';
import { makeStaticRoot } from '../../serve/test/helpers.js';

test('IPC is accepted only from the main frame of our window showing our app:// page', () => {
  const ok = { webContentsId: 7, frameUrl: APP_ENTRY_URL, isMainFrame: true };
  assert.equal(isTrustedSender(ok, 7), true);
  assert.equal(isTrustedSender({ ...ok, frameUrl: 'app://ndbtop/assets/x.html#y' }, 7), true);
  assert.equal(isTrustedSender(ok, 8), false, 'another webContents');
  assert.equal(isTrustedSender(ok, null), false, 'no window yet');
  assert.equal(isTrustedSender({ ...ok, isMainFrame: false }, 7), false, 'subframe');
  assert.equal(isTrustedSender({ ...ok, frameUrl: null }, 7), false, 'frame gone');
  for (const url of ['file:///tmp/index.html', 'https://ndbtop/index.html', 'app://evil/index.html', 'not a url']) {
    assert.equal(isTrustedSender({ ...ok, frameUrl: url }, 7), false, url);
  }
});

test('app:// serves the renderer with the desktop CSP and nothing outside it', async () => {
  const dir = await makeStaticRoot();
  try {
    const index = await appProtocolReply(dir.root, 'app://ndbtop/index.html');
    assert.equal(index.status, 200);
    assert.equal(index.headers['Content-Type'], 'text/html; charset=utf-8');
    assert.match(index.headers['Content-Security-Policy'] ?? '', /connect-src 'self'(;|$)/, 'its own app:// origin only (the recording upload)');
    assert.equal((await appProtocolReply(dir.root, 'app://ndbtop/%2e%2e/secret.txt')).status, 404);
    assert.equal((await appProtocolReply(dir.root, 'app://other/index.html')).status, 404);
  } finally {
    await dir.cleanup();
  }
});

test('window state: round trip, damaged file gives the default, off-screen positions are dropped', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-win-'));
  try {
    const file = join(dir, 'sub', 'window-state.json');
    assert.deepEqual(await loadWindowState(file), DEFAULT_WINDOW_STATE);
    const state = { x: 10, y: 20, width: 1000, height: 700, maximized: true, fullScreen: false };
    await saveWindowState(file, state);
    assert.deepEqual(await loadWindowState(file), state);
    await writeFile(file, '{"width": 3');
    assert.deepEqual(await loadWindowState(file), DEFAULT_WINDOW_STATE);
    await writeFile(file, JSON.stringify({ ...state, width: 5 }));
    assert.deepEqual(await loadWindowState(file), DEFAULT_WINDOW_STATE);
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    assert.deepEqual(visiblePosition(state, screen), { x: 10, y: 20 });
    assert.deepEqual(visiblePosition({ ...state, x: 5000 }, screen), {});
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const alert = (id: string, extra: Partial<Alert> = {}): Alert => ({
  id,
  kind: 'node-down',
  severity: 'critical',
  at: 1,
  nodeId: 3,
  message: 'node 3 left STARTED without a requested stop',
  acknowledged: false,
  resolvedAt: null,
  ...extra,
});

test('one notification per new alert, none for acknowledged or resolved ones, none while disabled', () => {
  const shown: AlertNotification[] = [];
  let enabled = true;
  const notify = createAlertNotifier((n) => shown.push(n), () => enabled);
  const push = (m: PushMessage): void => notify(m);
  push({ type: 'clusters', clusters: [{ clusterId: 'c1', name: 'prod', connectstring: 'h:1186', mode: 'live', status: 'live' }] });
  push({ type: 'alert', clusterId: 'c1', alert: alert('a1') });
  push({ type: 'alert', clusterId: 'c1', alert: alert('a1') });
  push({ type: 'alert', clusterId: 'c1', alert: alert('a2', { acknowledged: true }) });
  push({ type: 'alert', clusterId: 'c1', alert: alert('a3', { resolvedAt: 2 }) });
  enabled = false;
  push({ type: 'alert', clusterId: 'c1', alert: alert('a4') });
  assert.deepEqual(shown, [{ title: 'Critical: prod, node 3', body: 'node 3 left STARTED without a requested stop', urgency: 'critical' }]);
});

test('a notification shows control and bidi characters from the cluster as text, never obeyed', () => {
  const shown: AlertNotification[] = [];
  const notify = createAlertNotifier((n) => shown.push(n), () => true, { later: () => undefined });
  notify({ type: 'clusters', clusters: [{ clusterId: 'c1', name: 'prod\u202e', connectstring: 'h:1186', mode: 'live', status: 'live' }] });
  notify({ type: 'alert', clusterId: 'c1', alert: alert('a1', { message: 'node 3 at \u202eKO\u202c\x1b[2J' }) });
  assert.deepEqual(shown, [{ title: 'Critical: prod\\u202e, node 3', body: 'node 3 at \\u202eKO\\u202c\\x1b[2J', urgency: 'critical' }]);
});

test('an alert storm folds: one notification per kind per minute, naming how many and which nodes', () => {
  const shown: AlertNotification[] = [];
  const timers: Array<() => void> = [];
  const notify = createAlertNotifier((n) => shown.push(n), () => true, { later: (_ms, fn) => void timers.push(fn) });
  notify({ type: 'clusters', clusters: [{ clusterId: 'c1', name: 'bench', connectstring: 'h:1186', mode: 'live', status: 'live' }] });
  const memory = (id: number): Alert => alert(`m${id}`, { kind: 'memory-critical', nodeId: id, message: `Node ${id}: data memory 91% used` });
  for (let id = 1; id <= 141; id++) notify({ type: 'alert', clusterId: 'c1', alert: memory(id + 2) });
  // Another kind is not held back by the storm.
  notify({ type: 'alert', clusterId: 'c1', alert: alert('down', { nodeId: 7 }) });
  assert.deepEqual(shown.map((n) => n.title), ['Critical: bench, node 3', 'Critical: bench, node 7']);
  // The minute ends: the other 140 in one notification.
  timers.shift()?.();
  assert.equal(shown.length, 3);
  assert.equal(shown[2]?.title, 'Critical: bench, 140 more: memory ≥ 90 % used');
  assert.match(shown[2]?.body ?? '', /^nodes 4, 5, 6, .*, …$/);
  // A quiet minute closes the window; the next alert of the kind shows at once again.
  timers.shift()?.();
  timers.shift()?.();
  notify({ type: 'alert', clusterId: 'c1', alert: memory(200) });
  assert.equal(shown.length, 4);
  assert.equal(shown[3]?.title, 'Critical: bench, node 200');
});

test('menu: views, zoom, full screen, about, profiles', () => {
  const calls: string[] = [];
  const template = buildMenuTemplate([{ id: 'p1', name: 'prod', connectstring: 'mgm1:1186' }], {
    showView: (v) => calls.push(`view:${v}`),
    connectProfile: (p) => calls.push(`profile:${p.id}`),
    about: () => calls.push('about'),
  }, { devTools: false });
  const find = (items: MenuItemSpec[], label: string): MenuItemSpec | undefined => items.find((i) => i.label === label);
  const view = find(template, 'View')?.submenu ?? [];
  for (const label of ['Dashboard', 'Restart Timeline', 'Throughput', 'Events', 'Configuration', 'Threads']) find(view, label)?.click?.();
  assert.deepEqual(view.filter((i) => i.role).map((i) => i.role), ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
  find(find(find(template, 'File')?.submenu ?? [], 'Connect to Profile')?.submenu ?? [], 'prod (mgm1:1186)')?.click?.();
  find(find(template, 'Help')?.submenu ?? [], 'About ndbtop')?.click?.();
  assert.deepEqual(calls, ['view:nodes', 'view:restarts', 'view:throughput', 'view:events', 'view:config', 'view:threads', 'profile:p1', 'about']);
  assert.equal(viewUrl('restarts'), 'app://ndbtop/index.html#/restarts');
});

test('desktop command line: -c, NDB_CONNECTSTRING, simulator by default, Chromium switches ignored', () => {
  const none = parseDesktopArgs(['--no-sandbox-was-not-ours', '.'], {});
  assert.equal(none.connectstring, undefined);
  assert.equal(none.actionsEnabled, true);
  assert.equal(parseDesktopArgs([], { NDB_CONNECTSTRING: 'env:1186' }).connectstring, 'env:1186');
  const all = parseDesktopArgs(['-c', 'mgm1:1186', '--record', '/tmp/r.jsonl', '--poll', '500', '--read-only', '--enable-logging'], { NDB_CONNECTSTRING: 'env:1186' });
  assert.deepEqual(all, { connectstring: 'mgm1:1186', recordFile: '/tmp/r.jsonl', replayFile: undefined, pollIntervalMs: 500, actionsEnabled: false, devTools: false, tls: { mode: 'relaxed' } });
  const tls = parseDesktopArgs(['--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', '/etc/ndb-tls:$HOME/x', '--tls-ca', '/pki/ca.pem'], {});
  assert.deepEqual(tls.tls, { mode: 'strict', searchPath: '/etc/ndb-tls:$HOME/x', caFile: '/pki/ca.pem' });
  assert.throws(() => parseDesktopArgs(['--ndb-mgm-tls', 'maybe'], {}), /relaxed or strict/);
  assert.throws(() => parseDesktopArgs(['--poll', '5'], {}), /100 to 60000/);
});
