// Per-file progress inside the package ZIP while it streams (spec §4: each file with its byte
// progress). The server's ZIP (src/storage/zip.rs) is known in advance: stored entries, each a
// local header with its size (ZIP64 extra from 4 GiB on), then its bytes, in the package's file
// order, then the central directory. Reading the local headers as the bytes pass is enough to
// tell which file is arriving and how much of it has.

const LOCAL_HEADER = 0x04034b50;
const FIXED_HEADER = 30;
const MAX32 = 0xffffffff;
const ZIP64_EXTRA = 0x0001;

export interface EntryProgress {
  /** The path inside the archive, e.g. "Sommeraktion/flyer.pdf". */
  name: string;
  size: number;
  received: number;
}

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) + u16(bytes, at + 2) * 0x10000) >>> 0;
}

function u64(bytes: Uint8Array, at: number): number {
  // Exact up to 2^53, far beyond any upload.
  return u32(bytes, at) + u32(bytes, at + 4) * 0x100000000;
}

/** The size of a stored entry from its local header (the ZIP64 extra when the field is full). */
function entrySize(header: Uint8Array, nameLength: number, extraLength: number): number {
  const size = u32(header, 22);
  if (size !== MAX32) return size;
  let at = FIXED_HEADER + nameLength;
  const end = at + extraLength;
  while (at + 4 <= end) {
    const id = u16(header, at);
    const length = u16(header, at + 2);
    if (id === ZIP64_EXTRA && length >= 8) return u64(header, at + 4);
    at += 4 + length;
  }
  return size;
}

/**
 * Follows the archive's bytes chunk by chunk. `entries` grows by one as each local header
 * arrives; the tracker stops at the central directory (or anything it does not understand,
 * then the bar of the whole download still tells the progress).
 */
export class ZipEntryTracker {
  readonly entries: EntryProgress[] = [];
  private header = new Uint8Array(0);
  /** Bytes of the current entry still to come. */
  private remaining = 0;
  private done = false;

  feed(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && !this.done) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - at);
        const current = this.entries[this.entries.length - 1];
        if (current) current.received += take;
        this.remaining -= take;
        at += take;
        continue;
      }
      at += this.readHeader(chunk.subarray(at));
    }
  }

  /** Collects a local header across chunks; returns how many bytes of `bytes` it used. */
  private readHeader(bytes: Uint8Array): number {
    const have = this.header.length;
    const need = have >= FIXED_HEADER ? FIXED_HEADER + u16(this.header, 26) + u16(this.header, 28) : FIXED_HEADER;
    const take = Math.min(bytes.length, need - have);
    const joined = new Uint8Array(have + take);
    joined.set(this.header);
    joined.set(bytes.subarray(0, take), have);
    this.header = joined;
    if (joined.length >= 4 && u32(joined, 0) !== LOCAL_HEADER) {
      // The central directory (or an archive of another shape): no more entries.
      this.done = true;
      return bytes.length;
    }
    if (joined.length < FIXED_HEADER) return take;
    const nameLength = u16(joined, 26);
    const extraLength = u16(joined, 28);
    if (joined.length < FIXED_HEADER + nameLength + extraLength) return take;
    const name = new TextDecoder().decode(joined.subarray(FIXED_HEADER, FIXED_HEADER + nameLength));
    const size = entrySize(joined, nameLength, extraLength);
    this.entries.push({ name, size, received: 0 });
    this.remaining = size;
    this.header = new Uint8Array(0);
    return take;
  }
}
