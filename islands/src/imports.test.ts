// No circle between the islands' files (issue 36): read from their own import statements
// (static, re-exports and dynamic `import()`, type-only ones included), no file reaches
// itself through the files it imports. Where two files need each other, a third holds what
// they share (as lib/toastStore.ts does for lib/toast.ts and components/Toasts.tsx).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative module specifiers a file's code imports. */
export function specifiersOf(code: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s*['"](\.[^'"]*)['"]/g, /\bimport\s*\(\s*['"](\.[^'"]*)['"]\s*\)/g, /^\s*import\s*['"](\.[^'"]*)['"]/gm];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  if (/\.tsx?$/.test(base) && existsSync(base)) return base;
  for (const ext of EXTENSIONS) {
    if (existsSync(base + ext)) return base + ext;
  }
  return null;
}

/** Every set of files that reach each other, each once. */
export function circles(graph: Map<string, Set<string>>): string[][] {
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const pending = [from];
    while (pending.length > 0) {
      for (const next of graph.get(pending.pop()!) ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          pending.push(next);
        }
      }
    }
    return seen;
  };
  const reached = new Map([...graph.keys()].map((file) => [file, reach(file)]));
  const found = new Map<string, string[]>();
  for (const [file, fromHere] of reached) {
    if (!fromHere.has(file)) continue;
    const members = [...fromHere].filter((other) => reached.get(other)?.has(file)).sort();
    found.set(members.join(' '), members);
  }
  return [...found.values()];
}

describe('the islands’ imports', () => {
  it('form no circle between files', () => {
    const graph = new Map<string, Set<string>>();
    for (const file of sourceFiles(SRC)) {
      const imported = specifiersOf(readFileSync(file, 'utf8'))
        .map((specifier) => resolveImport(file, specifier))
        .filter((target): target is string => target !== null);
      graph.set(relative(SRC, file), new Set(imported.map((target) => relative(SRC, target))));
    }
    expect(graph.size).toBeGreaterThan(50);
    expect(circles(graph)).toEqual([]);
    expect(graph.get('components/Toasts.tsx')).toContain('lib/toastStore.ts');
  });

  it('the reading finds static, dynamic and re-exported imports, and a circle through them', () => {
    const code = `import a from './a';\nexport { b } from "../b";\nimport type { C } from './c';\nimport './d.css';\nconst e = import('./e');\nimport x from 'react';`;
    expect(specifiersOf(code).sort()).toEqual(['../b', './a', './c', './d.css', './e']);
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
