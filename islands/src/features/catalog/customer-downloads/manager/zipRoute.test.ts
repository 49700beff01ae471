import { describe, expect, it } from 'vitest';
import { chooseZipRoute, isOutOfMemory } from './zipRoute';

const MIB = 1024 * 1024;

describe('where the ZIP is made', () => {
  it('in the browser up to the configured size, by the server above it', () => {
    expect(chooseZipRoute(500 * MIB, 500)).toEqual({ kind: 'browser' });
    expect(chooseZipRoute(500 * MIB + 1, 500)).toEqual({ kind: 'server', reason: 'size' });
    expect(chooseZipRoute(1, 0)).toEqual({ kind: 'server', reason: 'size' });
  });

  it('by the server when the device has too little memory for jszip', () => {
    expect(chooseZipRoute(200 * MIB, 500, 0.5)).toEqual({ kind: 'server', reason: 'memory' });
    expect(chooseZipRoute(200 * MIB, 500, 8)).toEqual({ kind: 'browser' });
  });

  it('recognises a failed allocation', () => {
    expect(isOutOfMemory(new RangeError('Array buffer allocation failed'))).toBe(true);
    expect(isOutOfMemory(new Error('HTTP 404'))).toBe(false);
  });
});
