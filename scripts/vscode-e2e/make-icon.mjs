// Renders icon.png (128×128 RGBA) with a dependency-free PNG encoder, so the icon is reproducible from source.
// Usage: node scripts/vscode-e2e/make-icon.mjs [out.png]
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const SUPERSAMPLE = 4;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

// Encodes straight RGBA rows as an 8-bit truecolour-with-alpha PNG (filter 0 on every row).
export function encodePng(width, height, rgba) {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// --- shapes (signed distances in icon pixels; negative = inside)

function roundedSquare(x, y) {
  const half = 60;
  const radius = 24;
  const qx = Math.abs(x - 64) - (half - radius);
  const qy = Math.abs(y - 64) - (half - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function insideTriangle(x, y) {
  // play triangle pointing right: a program being run
  const ax = 48,
    ay = 40,
    bx = 48,
    by = 88,
    cx = 86,
    cy = 64;
  const s1 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
  const s2 = (cx - bx) * (y - by) - (cy - by) * (x - bx);
  const s3 = (ax - cx) * (y - cy) - (ay - cy) * (x - cx);
  return (s1 <= 0 && s2 <= 0 && s3 <= 0) || (s1 >= 0 && s2 >= 0 && s3 >= 0);
}

function insideBracket(x, y, mirrored) {
  // thin angle brackets either side of the triangle: code around the run
  const px = mirrored ? 128 - x : x;
  const dy = Math.abs(y - 64);
  if (dy > 22) return false;
  const edge = 22 + dy * 0.55;
  return px >= edge - 3.2 && px <= edge + 3.2;
}

function sample(x, y) {
  if (roundedSquare(x, y) > 0) return [0, 0, 0, 0];
  if (insideTriangle(x, y) || insideBracket(x, y, false) || insideBracket(x, y, true)) return [255, 255, 255, 255];
  // diagonal gradient, teal to indigo
  const t = (x + y) / 256;
  return [Math.round(18 + 52 * t), Math.round(150 - 90 * t), Math.round(170 + 40 * t), 255];
}

// Averages SUPERSAMPLE² samples per pixel for smooth edges.
export function renderIcon() {
  const rgba = Buffer.alloc(SIZE * SIZE * 4);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const [r, g, b, a] = sample(px + (sx + 0.5) / SUPERSAMPLE, py + (sy + 0.5) / SUPERSAMPLE);
          acc[0] += r * a;
          acc[1] += g * a;
          acc[2] += b * a;
          acc[3] += a;
        }
      }
      const o = (py * SIZE + px) * 4;
      const alpha = acc[3] / (SUPERSAMPLE * SUPERSAMPLE);
      rgba[o] = acc[3] ? Math.round(acc[0] / acc[3]) : 0;
      rgba[o + 1] = acc[3] ? Math.round(acc[1] / acc[3]) : 0;
      rgba[o + 2] = acc[3] ? Math.round(acc[2] / acc[3]) : 0;
      rgba[o + 3] = Math.round(alpha);
    }
  }
  return encodePng(SIZE, SIZE, rgba);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const out = path.resolve(process.argv[2] ?? path.join(root, 'icon.png'));
  writeFileSync(out, renderIcon());
  process.stdout.write(`wrote ${out}\n`);
}
