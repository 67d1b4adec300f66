import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, protocol, safeStorage, screen, session, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUESTS, type RequestName } from './contract/schemas/channels.js';
import { PUSH_CHANNEL, REQUEST_CHANNEL_PREFIX } from './contract/page-safe/vocabulary.js';
import { createAlertNotifier } from './desktop/alert-notifier.js';
import { appProtocolReply } from './desktop/app-protocol.js';
import { parseDesktopArgs } from './desktop/desktop-args.js';
import { startDesktopEngine } from './desktop/desktop-engine.js';
import { osKeychainCipher } from './desktop/os-keychain.js';
import { APP_ENTRY_URL, APP_SCHEME, isTrustedSender } from './desktop/ipc-guard.js';
import { buildMenuTemplate, viewUrl } from './desktop/menu-template.js';
import { desktopRecordingUpload, isRecordingUpload } from './desktop/recording-upload-protocol.js';
import { loadWindowState, saveWindowState, visiblePosition, type WindowState } from './desktop/window-state.js';
import type { EngineHost } from './engine/core/engine-host.js';
import { dispatchRequest } from './serve/transport/bridge.js';
import { rendererDistDir } from './serve/http/renderer-dir.js';
import { contentSecurityPolicy } from './serve/http/security-headers.js';

// The Electron shell, kept thin: every decision lives in plain-Node modules under desktop/ and serve/ that are
// tested without Electron. This file only wires them to Electron's APIs.

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

let win: BrowserWindow | null = null;
let engine: EngineHost | null = null;
let notificationsOn = true;
let lastWindowState: WindowState | null = null;
const stateFile = (): string => join(app.getPath('userData'), 'window-state.json');

function harden(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

async function refreshMenu(devTools: boolean): Promise<void> {
  const profiles = engine ? await engine.handlers.listProfiles({}) : [];
  const template = buildMenuTemplate(profiles, {
    showView: (view) => void win?.loadURL(viewUrl(view)),
    connectProfile: (p) => void engine?.handlers.addCluster({ name: p.name, connectstring: p.connectstring, profileId: p.id, ...(p.tls ? { tls: p.tls } : {}), ...(p.sql ? { sql: p.sql } : {}) }),
    about: () =>
      void dialog.showMessageBox({ type: 'info', title: 'About ndbtop', message: `ndbtop ${app.getVersion()}`, detail: 'Monitor for MySQL NDB Cluster, speaking the ndb_mgmd protocol.' }),
  }, { devTools });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function serveIpc(host: EngineHost, devTools: boolean): void {
  for (const name of Object.keys(REQUESTS) as RequestName[]) {
    ipcMain.handle(`${REQUEST_CHANNEL_PREFIX}${name}`, async (event: IpcMainInvokeEvent, request: unknown) => {
      const frame = event.senderFrame;
      const sender = { webContentsId: event.sender.id, frameUrl: frame?.url ?? null, isMainFrame: frame !== null && frame.parent === null };
      if (!isTrustedSender(sender, win?.webContents.id ?? null)) return { ok: false, error: { code: 'FORBIDDEN', message: 'request from an untrusted frame' } };
      const result = await dispatchRequest(host.handlers, name, request, undefined, 'operator');
      if (result.ok && (name === 'saveProfile' || name === 'deleteProfile')) void refreshMenu(devTools);
      if (result.ok && name === 'updateSettings') notificationsOn = (await host.handlers.getSettings({})).notifications;
      return result;
    });
  }
}

async function openWindow(): Promise<BrowserWindow> {
  const state = await loadWindowState(stateFile());
  const w = new BrowserWindow({
    width: state.width,
    height: state.height,
    ...visiblePosition(state, screen.getAllDisplays().map((d) => d.workArea)),
    show: false,
    title: 'ndbtop',
    backgroundColor: '#101418',
    webPreferences: {
      // Reviewed: the preload exposes only the contract's methods through contextBridge (desktop/preload-api.ts).
      preload: fileURLToPath(new URL('./preload.cjs', import.meta.url)), // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click would open links in a new window, bypassing setWindowOpenHandler's intent.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (state.maximized) w.maximize();
  if (state.fullScreen) w.setFullScreen(true);
  w.once('ready-to-show', () => w.show());
  w.on('close', () => {
    const b = w.getNormalBounds();
    lastWindowState = { x: b.x, y: b.y, width: b.width, height: b.height, maximized: w.isMaximized(), fullScreen: w.isFullScreen() };
  });
  await w.loadURL(APP_ENTRY_URL);
  return w;
}

async function start(): Promise<void> {
  const args = parseDesktopArgs(process.argv.slice(app.isPackaged ? 1 : 2), process.env);
  const rendererDir = rendererDistDir();
  protocol.handle(APP_SCHEME, async (request) => {
    if (isRecordingUpload(request.url)) return engine ? desktopRecordingUpload(engine, request) : new Response('starting', { status: 503 });
    const reply = await appProtocolReply(rendererDir, request.url);
    return new Response(new Uint8Array(reply.body instanceof Buffer ? reply.body : Buffer.from(reply.body)), { status: reply.status, headers: reply.headers });
  });
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // The CSP comes from contentSecurityPolicy(), shared with serve mode; Electronegativity reads only literal
  // CSPs, so scripts/electronegativity.mjs evaluates the real one instead.
  ses.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] } }), // eng-disable CSP_GLOBAL_CHECK
  );

  // After ready: safeStorage knows its keychain only then. Profiles' SQL passwords are encrypted by it.
  const host = await startDesktopEngine(args, app.getPath('userData'), await osKeychainCipher(safeStorage, process.platform));
  engine = host;
  notificationsOn = (await host.handlers.getSettings({})).notifications;
  const notify = createAlertNotifier(
    (n) => {
      if (Notification.isSupported()) new Notification({ title: n.title, body: n.body, urgency: n.urgency }).show();
    },
    () => notificationsOn,
  );
  host.subscribe((message) => {
    if (win && !win.isDestroyed()) win.webContents.send(PUSH_CHANNEL, message);
    notify(message);
  });
  serveIpc(host, args.devTools);
  await refreshMenu(args.devTools);
  win = await openWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('web-contents-created', (_event, contents) => harden(contents));
  app.on('window-all-closed', () => {
    // Save the geometry and close the engine (flushing a recording) before the process goes.
    const saved = lastWindowState ? saveWindowState(stateFile(), lastWindowState).catch(() => undefined) : Promise.resolve();
    void Promise.all([saved, engine?.close()]).finally(() => app.quit());
  });
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      dialog.showErrorBox('ndbtop could not start', err instanceof Error ? err.message : String(err));
      app.exit(2);
    });
}
