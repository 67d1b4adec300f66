import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { ROOT as root } from '../../scripts/test-source.js';

// Packaging needs the network (it runs in .github/workflows/release.yml); what can be checked offline is checked
// here: the electron-builder config against electron-builder's own schema, targets, fuses, entry points, icons.
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('app-builder-lib'));
const yaml = fromBuilder('js-yaml') as { load(text: string): unknown };
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

interface Target {
  target: string;
}
interface BuilderConfig {
  appId: string;
  productName: string;
  asar: boolean;
  files: string[];
  electronFuses: Record<string, boolean>;
  win: { icon: string; target: Target[] };
  linux: { icon: string; target: Target[] };
  directories: { buildResources: string };
}
const config = yaml.load(read('electron-builder.yml')) as BuilderConfig;
const pkg = JSON.parse(read('package.json')) as { main: string; scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };

test("electron-builder.yml passes electron-builder's own schema validation", async () => {
  const { validateConfiguration } = fromBuilder('./util/config/config') as { validateConfiguration(c: unknown, logger: unknown): Promise<void> };
  const { DebugLogger } = fromBuilder('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  await validateConfiguration(config, new DebugLogger(false));
  // And the validation is real: an unknown fuse is refused.
  const bad = { ...config, electronFuses: { ...config.electronFuses, notAFuse: true } };
  await assert.rejects(validateConfiguration(bad, new DebugLogger(false)), /electronFuses/);
});

test('targets: Windows nsis + portable, Linux AppImage + deb; asar; appId and productName', () => {
  assert.deepEqual(config.win.target.map((t) => t.target).sort(), ['nsis', 'portable']);
  assert.deepEqual(config.linux.target.map((t) => t.target).sort(), ['AppImage', 'deb']);
  assert.equal(config.asar, true);
  assert.equal(config.productName, 'ndbtop');
  assert.match(config.appId, /^[a-z0-9.-]+$/);
  assert.equal(config.directories.buildResources, 'build');
});

test('fuses: no run-as-node, no NODE_OPTIONS, no --inspect, app only from an integrity-checked asar, encrypted cookies', () => {
  assert.deepEqual(
    {
      runAsNode: config.electronFuses.runAsNode,
      enableNodeOptionsEnvironmentVariable: config.electronFuses.enableNodeOptionsEnvironmentVariable,
      enableNodeCliInspectArguments: config.electronFuses.enableNodeCliInspectArguments,
      onlyLoadAppFromAsar: config.electronFuses.onlyLoadAppFromAsar,
      enableEmbeddedAsarIntegrityValidation: config.electronFuses.enableEmbeddedAsarIntegrityValidation,
      enableCookieEncryption: config.electronFuses.enableCookieEncryption,
    },
    { runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true, enableEmbeddedAsarIntegrityValidation: true, enableCookieEncryption: true },
  );
});

test('the packaged files hold the main entry, the bundled preload and the renderer; electron is a dev dependency', () => {
  assert.ok(config.files.includes('dist/**/*'));
  assert.ok(config.files.includes('package.json'));
  assert.equal(pkg.main, 'dist/electron/main.js');
  assert.ok(readFileSync(join(root, 'electron/main.ts'), 'utf8').includes("new URL('./preload.cjs', import.meta.url)"));
  // What that bundle holds and does: desktop/test/preload-api.test.ts.
  assert.match(pkg.scripts['build:preload'] ?? '', /scripts\/build-preload\.ts$/);
  assert.match(read('renderer/vite.config.ts'), /\.\.\/dist\/renderer/);
  assert.ok(pkg.devDependencies.electron && !pkg.dependencies.electron, 'electron-builder refuses electron in dependencies');
});

interface Png {
  width: number;
  height: number;
}

/** Checks the signature, every chunk's CRC, and that the image data inflates to exactly the declared size. */
function readPng(buf: Buffer): Png {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  let ihdr: Buffer | null = null;
  const idat: Buffer[] = [];
  for (;;) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    assert.equal(buf.readUInt32BE(at + 8 + length), crc32(buf.subarray(at + 4, at + 8 + length)) >>> 0, `CRC of ${type}`);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
    if (type === 'IEND') break;
  }
  assert.ok(ihdr);
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  assert.deepEqual([ihdr[8], ihdr[9]], [8, 6], '8-bit RGBA');
  assert.equal(inflateSync(Buffer.concat(idat)).length, (width * 4 + 1) * height);
  return { width, height };
}

test('icons: 512×512 PNG, a Linux set named by size, and a .ico with 16…256', () => {
  assert.deepEqual(readPng(readFileSync(join(root, 'build/icon.png'))), { width: 512, height: 512 });
  const set = readdirSync(join(root, config.linux.icon)).filter((f) => f.endsWith('.png'));
  assert.ok(set.includes('512x512.png') && set.includes('16x16.png'));
  for (const name of set) {
    const size = Number(name.split('x')[0]);
    assert.deepEqual(readPng(readFileSync(join(root, config.linux.icon, name))), { width: size, height: size }, name);
  }
  const ico = readFileSync(join(root, config.win.icon));
  assert.deepEqual([ico.readUInt16LE(0), ico.readUInt16LE(2)], [0, 1], 'ICO header');
  const sizes: number[] = [];
  for (let i = 0; i < ico.readUInt16LE(4); i++) {
    const e = 6 + 16 * i;
    const size = ico[e] === 0 ? 256 : (ico[e] as number);
    const image = ico.subarray(ico.readUInt32LE(e + 12), ico.readUInt32LE(e + 12) + ico.readUInt32LE(e + 8));
    assert.deepEqual(readPng(image), { width: size, height: size });
    sizes.push(size);
  }
  for (const size of [16, 32, 48, 256]) assert.ok(sizes.includes(size), `ico has ${size}`);
});

test('release workflow: Windows and Linux runners, builds, packages without publishing, uploads artifacts', () => {
  const workflow = yaml.load(read('.github/workflows/release.yml')) as { jobs: Record<string, { strategy: { matrix: { include: Array<{ os: string }> } }; steps: Array<{ run?: string; uses?: string }> }> };
  const job = Object.values(workflow.jobs)[0];
  assert.ok(job);
  assert.deepEqual(job.strategy.matrix.include.map((i) => i.os).sort(), ['ubuntu-latest', 'windows-latest']);
  const runs = job.steps.map((s) => s.run ?? s.uses ?? '');
  assert.ok(runs.includes('npm ci'));
  assert.ok(runs.some((r) => r.includes('npm run build:preload')));
  assert.ok(runs.some((r) => r.includes('electron-builder') && r.includes('--publish never')));
  assert.ok(runs.some((r) => r.startsWith('actions/upload-artifact')));
});
