import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { PushMessage } from '../../contract/channels.js';
import type { Alert } from '../../contract/events.js';
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
    assert.match(index.headers['Content-Security-Policy'] ?? '', /connect-src 'none'/);
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

test('menu: views, zoom, full screen, about, profiles', () => {
  const calls: string[] = [];
  const template = buildMenuTemplate([{ id: 'p1', name: 'prod', connectstring: 'mgm1:1186' }], {
    showView: (v) => calls.push(`view:${v}`),
    connectProfile: (p) => calls.push(`profile:${p.id}`),
    about: () => calls.push('about'),
  }, { devTools: false });
  const find = (items: MenuItemSpec[], label: string): MenuItemSpec | undefined => items.find((i) => i.label === label);
  const view = find(template, 'View')?.submenu ?? [];
  for (const label of ['Dashboard', 'Restart Timeline', 'Throughput', 'Events', 'Configuration']) find(view, label)?.click?.();
  assert.deepEqual(view.filter((i) => i.role).map((i) => i.role), ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
  find(find(find(template, 'File')?.submenu ?? [], 'Connect to Profile')?.submenu ?? [], 'prod (mgm1:1186)')?.click?.();
  find(find(template, 'Help')?.submenu ?? [], 'About ndbtop')?.click?.();
  assert.deepEqual(calls, ['view:nodes', 'view:restarts', 'view:throughput', 'view:events', 'view:config', 'profile:p1', 'about']);
  assert.equal(viewUrl('restarts'), 'app://ndbtop/index.html#/restarts');
});

test('desktop command line: -c, NDB_CONNECTSTRING, simulator by default, Chromium switches ignored', () => {
  const none = parseDesktopArgs(['--no-sandbox-was-not-ours', '.'], {});
  assert.equal(none.connectstring, undefined);
  assert.equal(none.actionsEnabled, true);
  assert.equal(parseDesktopArgs([], { NDB_CONNECTSTRING: 'env:1186' }).connectstring, 'env:1186');
  const all = parseDesktopArgs(['-c', 'mgm1:1186', '--record', '/tmp/r.jsonl', '--poll', '500', '--read-only', '--enable-logging'], { NDB_CONNECTSTRING: 'env:1186' });
  assert.deepEqual(all, { connectstring: 'mgm1:1186', recordFile: '/tmp/r.jsonl', replayFile: undefined, pollIntervalMs: 500, actionsEnabled: false, devTools: false });
  assert.throws(() => parseDesktopArgs(['--poll', '5'], {}), /100 to 60000/);
});
