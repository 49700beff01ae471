import { describe, expect, it } from 'vitest';
import { concat, localHeader } from './fixtures';
import { ZipEntryTracker } from './zipProgress';

/** The start of the central directory: the tracker must stop there. */
const CENTRAL = Uint8Array.of(0x50, 0x4b, 0x01, 0x02, 9, 9, 9, 9, 9, 9);

const archive = concat(
  localHeader('Sommeraktion/flyer.pdf', 100),
  new Uint8Array(100).fill(7),
  localHeader('Sommeraktion/leer.txt', 0),
  localHeader('Sommeraktion/plakat-ä.png', 250),
  new Uint8Array(250).fill(0x50), // bytes that look like a signature are data here
  CENTRAL,
);

function feedIn(bytes: Uint8Array, size: number): ZipEntryTracker {
  const tracker = new ZipEntryTracker();
  for (let at = 0; at < bytes.length; at += size) tracker.feed(bytes.subarray(at, at + size));
  return tracker;
}

describe('ZipEntryTracker', () => {
  it.each([1, 7, 31, 64, 10_000])('follows every entry in chunks of %i bytes', (size) => {
    expect(feedIn(archive, size).entries).toEqual([
      { name: 'Sommeraktion/flyer.pdf', size: 100, received: 100 },
      { name: 'Sommeraktion/leer.txt', size: 0, received: 0 },
      { name: 'Sommeraktion/plakat-ä.png', size: 250, received: 250 },
    ]);
  });

  it('tells how much of the current file has arrived', () => {
    const tracker = new ZipEntryTracker();
    tracker.feed(archive.subarray(0, localHeader('Sommeraktion/flyer.pdf', 100).length + 40));
    expect(tracker.entries).toEqual([{ name: 'Sommeraktion/flyer.pdf', size: 100, received: 40 }]);
  });

  it('reads the size of a ZIP64 entry from its extra field', () => {
    const size = 5 * 1024 ** 3;
    const tracker = new ZipEntryTracker();
    tracker.feed(concat(localHeader('Paket/video.mp4', size, true), new Uint8Array(10)));
    expect(tracker.entries).toEqual([{ name: 'Paket/video.mp4', size, received: 10 }]);
  });

  it('gives up quietly on bytes that are no ZIP', () => {
    const tracker = feedIn(new Uint8Array(300), 64);
    expect(tracker.entries).toEqual([]);
  });
});
