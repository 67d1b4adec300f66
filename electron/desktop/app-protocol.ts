import { securityHeaders } from '../serve/http/security-headers.js';
import { readStaticFile } from '../serve/http/static-files.js';
import { APP_HOST } from './ipc-guard.js';

export interface ProtocolReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/**
 * The desktop UI is served from `app://ndbtop/` rather than file://: a standard, secure origin of its own, so
 * ES module scripts load, `'self'` in the CSP means exactly the app's files, and the IPC guard can tell our page
 * by its URL. Same traversal-safe file lookup as serve mode.
 */
export async function appProtocolReply(rendererDir: string, requestUrl: string): Promise<ProtocolReply> {
  const url = new URL(requestUrl);
  const headers = securityHeaders();
  if (url.host !== APP_HOST) return { status: 404, headers, body: 'Not Found' };
  const file = await readStaticFile(rendererDir, url.pathname);
  if (!file) return { status: 404, headers, body: 'Not Found' };
  return { status: 200, headers: { ...headers, 'Content-Type': file.contentType }, body: file.body };
}
