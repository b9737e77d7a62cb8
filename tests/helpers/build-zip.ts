import { deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  data?: Buffer;
  /** Compressed bytes as stored (default: deflateRaw of data). */
  compressed?: Buffer;
  /** Declared uncompressed size (default: data's length): a lie when set. */
  declaredSize?: number;
}

/**
 * A ZIP (a DOCX is one) with a central directory, method 8 (deflate) for every part, built byte by
 * byte so tests and benches can make archives that lie about their sizes: decompression bombs are
 * built at run time, never stored in git.
 */
export function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const compressed = part.compressed ?? deflateRawSync(part.data ?? Buffer.alloc(0));
    const size = part.declaredSize ?? part.data?.length ?? 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(parts.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(parts.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
