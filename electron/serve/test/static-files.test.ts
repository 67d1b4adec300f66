import assert from 'node:assert/strict';
import { resolve, sep } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { contentTypeOf, resolveStaticPath } from '../http/static-files.js';

const root = resolve('/srv/ndbtop/renderer');

test('paths map inside the root; / is index.html', () => {
  assert.equal(resolveStaticPath(root, '/'), `${root}${sep}index.html`);
  assert.equal(resolveStaticPath(root, '/assets/a.js'), `${root}${sep}assets${sep}a.js`);
  assert.equal(resolveStaticPath(root, '/assets/../index.html'), `${root}${sep}index.html`);
});

test('traversal in any spelling is refused', () => {
  for (const path of ['/..', '/../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E%2Fsecret.txt', '/assets/../../secret.txt', '/..%5csecret.txt', '/%00index.html', '/%E0%A4%A', '//etc/passwd/../../..']) {
    assert.equal(resolveStaticPath(root, path), null, path);
  }
});

test('whatever the path, a result is strictly inside the root', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('..', '.', '%2e%2e', 'a', '%2f', '/', '\\', '%00', 'index.html', ''), { maxLength: 8 }), (parts) => {
      const full = resolveStaticPath(root, `/${parts.join('/')}`);
      assert.ok(full === null || full.startsWith(root + sep), String(full));
    }),
  );
});

test('content types of what Vite emits', () => {
  assert.equal(contentTypeOf('/x/index.html'), 'text/html; charset=utf-8');
  assert.equal(contentTypeOf('/x/a.JS'), 'text/javascript; charset=utf-8');
  assert.equal(contentTypeOf('/x/a.css'), 'text/css; charset=utf-8');
  assert.equal(contentTypeOf('/x/a.woff2'), 'font/woff2');
  assert.equal(contentTypeOf('/x/unknown.bin'), 'application/octet-stream');
});
