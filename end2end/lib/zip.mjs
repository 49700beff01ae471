// ZIP archives for browser tests: reads an archive's entries (name → bytes), enough for the
// archives the portal makes (stored or deflated entries, sizes in the central directory, ZIP64
// sizes), and makes small deflated ones to upload.
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

function endOfCentralDirectory(zip) {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 65_557); at -= 1) {
    if (zip.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw new Error('not a ZIP archive: no end of central directory');
}

/** ZIP64 sizes from an entry's extra field, where the 32-bit fields say 0xffffffff. */
function zip64Sizes(extra, compressed, size) {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      if (size === 0xffffffff) {
        size = Number(extra.readBigUInt64LE(field));
        field += 8;
      }
      if (compressed === 0xffffffff) compressed = Number(extra.readBigUInt64LE(field));
    }
    at += 4 + length;
  }
  return { compressed, size };
}

/** The entries of `zip` (a Buffer) in archive order: [{ name, bytes }]. */
export function readZip(zip) {
  const end = endOfCentralDirectory(zip);
  let count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) {
    const locator = zip.readUInt32LE(end - 20) === 0x07064b50 ? end - 20 : -1;
    if (locator < 0) throw new Error('ZIP64 end record missing');
    const end64 = Number(zip.readBigUInt64LE(locator + 8));
    count = Number(zip.readBigUInt64LE(end64 + 32));
    at = Number(zip.readBigUInt64LE(end64 + 48));
  }
  const entries = [];
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const extra = zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    const { compressed } = zip64Sizes(extra, zip.readUInt32LE(at + 20), zip.readUInt32LE(at + 24));
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    const bytes = method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data) : null;
    if (bytes === null) throw new Error(`unknown compression ${method} of ${name}`);
    entries.push({ name, bytes });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** A ZIP archive (a Buffer) of `entries` [{ name, bytes }], each deflated, for upload tests. */
export function makeZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, bytes } of entries) {
    const fileName = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(bytes);
    const crc = crc32(bytes);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(bytes.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // version needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(bytes.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
