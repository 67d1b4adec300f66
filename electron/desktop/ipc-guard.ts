export const APP_SCHEME = 'app';
export const APP_HOST = 'ndbtop';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** What main.ts knows about the frame behind an IPC message (Electron's senderFrame, reduced to plain data). */
export interface IpcSender {
  /** webContents id of the sender. */
  webContentsId: number;
  /** null when the frame is already gone. */
  frameUrl: string | null;
  isMainFrame: boolean;
}

/**
 * The one IPC sender check: only the main frame of our own window, showing our own app:// page, may call the
 * engine. Anything else (a subframe, a page navigated elsewhere, another webContents) is refused.
 */
export function isTrustedSender(sender: IpcSender, windowWebContentsId: number | null): boolean {
  if (windowWebContentsId === null || sender.webContentsId !== windowWebContentsId) return false;
  if (!sender.isMainFrame || sender.frameUrl === null) return false;
  try {
    const url = new URL(sender.frameUrl);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}
