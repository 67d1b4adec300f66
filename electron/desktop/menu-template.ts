import type { Profile } from '../contract/schemas/settings.js';
import { APP_ENTRY_URL } from './ipc-guard.js';

/** The renderer's views (renderer/src/store/ui-slice.ts VIEWS), opened as `#/<id>`; the menu switches between them. */
export const VIEWS = [
  { id: 'nodes', label: 'Dashboard', accelerator: 'CmdOrCtrl+1' },
  { id: 'restarts', label: 'Restart Timeline', accelerator: 'CmdOrCtrl+2' },
  { id: 'throughput', label: 'Throughput', accelerator: 'CmdOrCtrl+3' },
  { id: 'events', label: 'Events', accelerator: 'CmdOrCtrl+4' },
  { id: 'config', label: 'Configuration', accelerator: 'CmdOrCtrl+6' },
  { id: 'threads', label: 'Threads', accelerator: 'CmdOrCtrl+9' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

type Role = 'quit' | 'close' | 'undo' | 'redo' | 'cut' | 'copy' | 'paste' | 'selectAll' | 'reload' | 'toggleDevTools' | 'resetZoom' | 'zoomIn' | 'zoomOut' | 'togglefullscreen';

/** A structural subset of Electron's MenuItemConstructorOptions, so the template is built and tested in plain Node. */
export interface MenuItemSpec {
  label?: string;
  role?: Role;
  type?: 'separator' | 'normal';
  accelerator?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemSpec[];
}

export interface MenuActions {
  showView(view: ViewId): void;
  connectProfile(profile: Profile): void;
  about(): void;
}

export function buildMenuTemplate(profiles: readonly Profile[], actions: MenuActions, options: { devTools: boolean }): MenuItemSpec[] {
  const separator: MenuItemSpec = { type: 'separator' };
  const profileItems: MenuItemSpec[] =
    profiles.length === 0
      ? [{ label: 'No saved profiles', enabled: false }]
      : profiles.map((p) => ({ label: `${p.name} (${p.connectstring})`, click: () => actions.connectProfile(p) }));
  return [
    { label: 'File', submenu: [{ label: 'Connect to Profile', submenu: profileItems }, separator, { role: 'quit' }] },
    { label: 'Edit', submenu: [{ role: 'undo' }, { role: 'redo' }, separator, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    {
      label: 'View',
      submenu: [
        ...VIEWS.map((v): MenuItemSpec => ({ label: v.label, accelerator: v.accelerator, click: () => actions.showView(v.id) })),
        separator,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        separator,
        { role: 'togglefullscreen' },
        ...(options.devTools ? [separator, { role: 'reload' as const }, { role: 'toggleDevTools' as const }] : []),
      ],
    },
    { label: 'Help', submenu: [{ label: 'About ndbtop', click: () => actions.about() }] },
  ];
}

/**
 * Where a view lives: the renderer routes by hash, and loading the same page with another fragment is a
 * same-document navigation (no reload, no `will-navigate`), so no script has to be run in the page.
 */
export function viewUrl(view: ViewId): string {
  return `${APP_ENTRY_URL}#/${view}`;
}
