// Draws ndbtop's icon (a dark tile with three status bars and a pulse line) at every size electron-builder and
// Windows need, as PNG and a PNG-compressed .ico, with node's zlib only. Run: node build/generate-icons.mjs
import { Buffer } from 'node:buffer';
import { writeFileSync, mkdirSync } from 'node:fs';
import process from 'node:process';
import { crc32, deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const clamp = (v) => Math.max(0, Math.min(1, v));

function roundedBox(px, py, cx, cy, hw, hh, r) {
  const qx = Math.abs(px - cx) - hw + r;
  const qy = Math.abs(py - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function segment(px, py, ax, ay, bx, by) {
  const dx = bx - ax, dy = by - ay;
  const t = clamp(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

const BARS = [
  { x: 0.3, top: 0.46, color: [46, 204, 113] },
  { x: 0.5, top: 0.3, color: [46, 204, 113] },
  { x: 0.7, top: 0.58, color: [241, 196, 15] },
];
const PULSE = [[0.14, 0.7], [0.36, 0.7], [0.44, 0.52], [0.54, 0.86], [0.62, 0.7], [0.86, 0.7]];

/** Signed distances in unit coordinates, turned into coverage with a one-pixel ramp: antialiased at any size. */
function pixel(x, y, size) {
  const aa = 1 / size;
  const cover = (d) => clamp(0.5 - d / aa);
  let rgb = [16, 20, 24];
  let a = cover(roundedBox(x, y, 0.5, 0.5, 0.46, 0.46, 0.12));
  const blend = (color, c) => (rgb = rgb.map((v, i) => v + (color[i] - v) * c));
  for (const bar of BARS) blend(bar.color, cover(roundedBox(x, y, bar.x, (bar.top + 0.8) / 2, 0.07, (0.8 - bar.top) / 2, 0.025)));
  let pulse = Infinity;
  for (let i = 1; i < PULSE.length; i++) pulse = Math.min(pulse, segment(x, y, ...PULSE[i - 1], ...PULSE[i]));
  blend([236, 240, 241], cover(pulse - Math.max(0.025, 1.2 / size)));
  return [...rgb.map(Math.round), Math.round(a * 255)];
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function png(size) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const p = pixel((x + 0.5) / size, (y + 0.5) / size, size);
      p.forEach((v, i) => (raw[y * (size * 4 + 1) + 1 + x * 4 + i] = v));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

export function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(join(here, 'icons'), { recursive: true });
  writeFileSync(join(here, 'icon.png'), png(512));
  for (const size of LINUX_SIZES) writeFileSync(join(here, 'icons', `${size}x${size}.png`), png(size));
  writeFileSync(join(here, 'icon.ico'), ico(ICO_SIZES.map((size) => ({ size, data: png(size) }))));
}
