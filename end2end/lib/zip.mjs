// Reads a ZIP archive's entries for browser tests: name → bytes. Enough for the archives the
// portal makes (stored or deflated entries, sizes in the central directory, ZIP64 sizes).
import { inflateRawSync } from 'node:zlib';

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
