import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathFree } from '../path-free.js';

test('pathFree: the named files by their names, any other absolute path unnamed, the rest of the words as they were', () => {
  const file = '/root/.ndbtop/rolling-restart/3f2a.json';
  assert.equal(pathFree(`${file}: not a rolling-restart state file (invalid)`, [[file, "the cluster's state file"]]), "the cluster's state file: not a rolling-restart state file (invalid)");
  assert.equal(pathFree(`EACCES: permission denied, open '${file}.77.tmp'`), "EACCES: permission denied, open '(a path on the server)'");
  assert.equal(pathFree('ENOENT: no such file or directory, mkdir /var/lib/ndbtop'), 'ENOENT: no such file or directory, mkdir (a path on the server)');
  assert.equal(pathFree('open "C:\\Users\\op\\AppData\\x.json" failed'), 'open "(a path on the server)" failed');
  // Ordinary words with slashes are no paths.
  assert.equal(pathFree('step 1: nodes 2, 4; 0.5/s, n/a, a / b'), 'step 1: nodes 2, 4; 0.5/s, n/a, a / b');
});
