import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkServeOptions, isLoopbackHost, ServeConfigError, tokenMatches } from '../access/auth.js';

test('loopback addresses and names', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) assert.equal(isLoopbackHost(h), true, h);
  for (const h of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com', '128.0.0.1', 'localhost.evil.com', '']) assert.equal(isLoopbackHost(h), false, h);
});

test('token comparison: equal only when equal, whatever the lengths', () => {
  assert.equal(tokenMatches('s3cret-token', 's3cret-token'), true);
  assert.equal(tokenMatches('s3cret-token', 's3cret-toke'), false);
  assert.equal(tokenMatches('s3cret-token', 's3cret-token!'), false);
  assert.equal(tokenMatches('s3cret-token', ''), false);
  assert.equal(tokenMatches('s3cret-token', null), false);
});

test('non-loopback binds need a token; tokens must not be trivially short', () => {
  assert.throws(() => checkServeOptions('0.0.0.0', undefined), ServeConfigError);
  assert.throws(() => checkServeOptions('::', undefined), /without --token/);
  assert.throws(() => checkServeOptions('127.0.0.1', 'short'), /at least 8/);
  checkServeOptions('0.0.0.0', 'long-enough-token');
  checkServeOptions('127.0.0.1', undefined);
});
