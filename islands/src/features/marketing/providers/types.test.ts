import { describe, expect, it } from 'vitest';
import { normalizeProvider, parseAllowedRoles, uploadUrl } from './types';
import type { RawProvider } from './types';

describe('parseAllowedRoles', () => {
  it('takes an array as it is, dropping non-strings, blanks and repeats', () => {
    expect(parseAllowedRoles(['GS-A', 'GS-B'])).toEqual(['GS-A', 'GS-B']);
    expect(parseAllowedRoles(['GS-A', 3, null, ' ', ' GS-A ', 'GS-B'])).toEqual(['GS-A', 'GS-B']);
  });

  it('parses a JSON string of an array', () => {
    expect(parseAllowedRoles('["GS-A","GS-B"]')).toEqual(['GS-A', 'GS-B']);
    expect(parseAllowedRoles(' [] ')).toEqual([]);
  });

  it('parses a doubly encoded JSON string', () => {
    expect(parseAllowedRoles(JSON.stringify(JSON.stringify(['GS-A'])))).toEqual(['GS-A']);
  });

  it('reads a plain string as a comma-separated list', () => {
    expect(parseAllowedRoles('GS-A')).toEqual(['GS-A']);
    expect(parseAllowedRoles('GS-A, GS-B')).toEqual(['GS-A', 'GS-B']);
    expect(parseAllowedRoles('[kaputt')).toEqual(['[kaputt']);
  });

  it('gives an empty list for nothing or other shapes', () => {
    expect(parseAllowedRoles(null)).toEqual([]);
    expect(parseAllowedRoles(undefined)).toEqual([]);
    expect(parseAllowedRoles('')).toEqual([]);
    expect(parseAllowedRoles(42)).toEqual([]);
    expect(parseAllowedRoles({ role: 'GS-A' })).toEqual([]);
    expect(parseAllowedRoles('{"a":1}')).toEqual(['{"a":1}']);
  });
});

describe('normalizeProvider', () => {
  it('parses allowedRoles and fills missing optional parts with null', () => {
    const raw: RawProvider = {
      id: 3,
      name: 'Marke',
      allowedRoles: '["GS-A"]',
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-02T00:00:00Z',
    };
    expect(normalizeProvider(raw)).toEqual({
      ...raw,
      allowedRoles: ['GS-A'],
      brevoActiveFolderId: null,
      brevoInactiveFolderId: null,
      uploadId: null,
      Upload: null,
    });
  });
});

describe('uploadUrl', () => {
  it('puts a relative path on the site root and leaves absolute ones alone', () => {
    expect(uploadUrl('uploads/logo.png')).toBe('/uploads/logo.png');
    expect(uploadUrl('/uploads/logo.png')).toBe('/uploads/logo.png');
    expect(uploadUrl('https://cdn.example.org/logo.png')).toBe('https://cdn.example.org/logo.png');
  });
});
