import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a URL path to a file strictly inside `root`, or null. Decodes once, then refuses NUL, backslashes and
 * any result that resolves outside the root, so `..`, `%2e%2e` and absolute paths cannot escape.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  // Source maps are never served, even from a development build left in place.
  if (/\.map$/i.test(decoded)) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = resolve(root);
  const full = resolve(base, relative);
  return full.startsWith(base + sep) ? full : null;
}

export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** Vite's hashed assets never change under the same name; index.html must be revalidated. */
  cacheControl: string;
}

/** null when the path is outside the root or no such file exists. */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const path = resolveStaticPath(root, urlPath);
  if (!path) return null;
  try {
    const body = await readFile(path);
    const hashed = /[.-][A-Za-z0-9_-]{8,}\.(js|css|woff2?|png|svg)$/.test(path);
    return { body, contentType: contentTypeOf(path), cacheControl: hashed ? 'public, max-age=31536000, immutable' : 'no-cache' };
  } catch {
    return null;
  }
}
