/**
 * The little PNG the browser checks need: a solid-colour image to answer every image request with,
 * and the top-left corner of a screenshot (WebKit's window is wider than a phone).
 */
import { crc32, deflateSync, inflateSync } from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGB (3 channels) or RGBA (4) image from its rows, each led by its filter byte. */
function encode(width: number, height: number, channels: 3 | 4, rows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 3 ? 2 : 6, 0, 0, 0], 8); // 8 bits per channel, no interlace
  // The fastest compression: these are screenshots for review, written by the hundred.
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", deflateSync(rows, { level: 1 })), chunk("IEND", Buffer.alloc(0))]);
}

export function solidPng(width: number, height: number, rgb: readonly [number, number, number] = [148, 163, 184]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  return encode(width, height, 3, Buffer.concat(Array.from({ length: height }, () => row)));
}

/** The top-left `width` × `height` pixels of an 8-bit, non-interlaced RGB or RGBA PNG (the PNG itself if that is its size). */
export function cropPng(png: Buffer, width: number, height: number): Buffer {
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let at = SIGNATURE.length; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString("ascii", at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  const header = chunks.find((c) => c.type === "IHDR")?.data ?? Buffer.alloc(13);
  const channels = header[9] === 2 ? 3 : header[9] === 6 ? 4 : 0;
  if (header[8] !== 8 || channels === 0 || header[12] !== 0) throw new Error("cropPng: not an 8-bit non-interlaced RGB or RGBA PNG");
  const [fullWidth, fullHeight] = [header.readUInt32BE(0), header.readUInt32BE(4)];
  if (width > fullWidth || height > fullHeight) throw new Error(`cropPng: ${width}×${height} is larger than the image (${fullWidth}×${fullHeight})`);
  if (width === fullWidth && height === fullHeight) return png;
  const data = inflateSync(Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data)));
  const stride = fullWidth * channels;
  const rows = Buffer.alloc(height * (1 + width * channels));
  let previous = Buffer.alloc(width * channels);
  for (let y = 0; y < height; y++) {
    // Undo the row's filter (PNG spec, section 9) on the part kept: each byte is predicted from the bytes left of and above it.
    const filter = data[y * (stride + 1)];
    const row = Buffer.from(data.subarray(y * (stride + 1) + 1, y * (stride + 1) + 1 + width * channels));
    for (let i = 0; i < row.length; i++) {
      const left = i >= channels ? row[i - channels]! : 0;
      const up = previous[i]!;
      const upLeft = i >= channels ? previous[i - channels]! : 0;
      const predictor = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : 0;
      row[i] = (row[i]! + predictor) & 0xff;
    }
    row.copy(rows, y * (1 + width * channels) + 1);
    previous = row;
  }
  return encode(width, height, channels, rows);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
