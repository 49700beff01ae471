// Sizes of the islands' hand-written files: no file over 800 lines, no function or component
// over 150 lines. Read from the source text: a function runs from the line that declares it
// (`function name(`, `export (default) function`, `async function`, `const name = (…) =>`,
// `const name = async (…) =>`, `const name = function`), nested ones included, to the line of
// its closing brace (or, for an arrow with an expression body, of the statement's `;`).
// Braces are counted with strings, template text, regular expressions and comments blanked out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
export const MAX_FILE_LINES = 800;
export const MAX_FUNCTION_LINES = 150;

/** Tests, the test helpers of src/test/, fixtures and test data, and the generated API types are left out. */
function isHandWritten(path: string): boolean {
  const rel = relative(SRC, path).split('\\').join('/');
  if (!/\.tsx?$/.test(rel) || /\.test\.tsx?$/.test(rel)) return false;
  if (rel.startsWith('test/') || rel === 'lib/openapi.d.ts') return false;
  return !/(^|\/)(fixtures|testData)\.tsx?$/.test(rel);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return isHandWritten(path) ? [path] : [];
  });
}

const REGEX_AFTER_CHAR = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', ';', '+', '-', '%', '~', '^']);
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

/**
 * The code with the insides of strings, template text, regular expressions and comments
 * replaced by spaces (same length, newlines and quote marks kept), so brackets can be counted.
 * A quote or slash with no partner on its line (JSX text such as "Don't") stays as it is.
 */
export function maskNonCode(code: string): string {
  const out = code.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  // The end (index after the closing mark) of a one-line literal opened at `start`, or -1.
  const closeOnLine = (start: number, mark: string, inClass: boolean): number => {
    let inBrackets = false;
    for (let k = start + 1; k < code.length; k++) {
      const c = code[k];
      if (c === '\n') return -1;
      if (c === '\\') k++;
      else if (inClass && c === '[') inBrackets = true;
      else if (inClass && c === ']') inBrackets = false;
      else if (c === mark && !inBrackets) return k + 1;
    }
    return -1;
  };
  const regexMayStart = (at: number): boolean => {
    let k = at - 1;
    while (k >= 0 && /\s/.test(out[k]!)) k--;
    const c = k >= 0 ? out[k]! : '';
    if (c === '>') return out[k - 1] === '='; // after `=>`, not after a JSX tag
    if (/[\w$]/.test(c)) {
      let s = k;
      while (s > 0 && /[\w$]/.test(out[s - 1]!)) s--;
      return REGEX_AFTER_WORD.has(out.slice(s, k + 1).join(''));
    }
    return REGEX_AFTER_CHAR.has(c);
  };
  // Template text from `start` (just after the backtick or the `}` of `${…}`): blanks it and
  // returns where code goes on, and whether a `${` was entered (else the template ended).
  const templateText = (start: number): [number, boolean] => {
    for (let k = start; k < code.length; k++) {
      const c = code[k];
      if (c === '\\') k++;
      else if (c === '`') {
        blank(start, k);
        return [k + 1, false];
      } else if (c === '$' && code[k + 1] === '{') {
        blank(start, k + 2);
        return [k + 2, true];
      }
    }
    blank(start, code.length);
    return [code.length, false];
  };

  const templates: number[] = []; // for each `${` entered, the braces opened inside it
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    const next = code[i + 1];
    if (c === '/' && next === '/' && code[i - 1] !== ':') {
      const end = code.indexOf('\n', i);
      const stop = end === -1 ? code.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      const stop = end === -1 ? code.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || (c === '/' && regexMayStart(i))) {
      const end = closeOnLine(i, c, c === '/');
      if (end === -1) {
        i++;
      } else {
        blank(i + 1, end - 1);
        i = end;
      }
    } else if (c === '`') {
      const [at, entered] = templateText(i + 1);
      if (entered) templates.push(0);
      i = at;
    } else if (c === '{' && templates.length > 0) {
      templates[templates.length - 1]!++;
      i++;
    } else if (c === '}' && templates.length > 0) {
      if (templates[templates.length - 1]! > 0) {
        templates[templates.length - 1]!--;
        i++;
      } else {
        templates.pop();
        out[i] = ' ';
        const [at, entered] = templateText(i + 1);
        if (entered) templates.push(0);
        i = at;
      }
    } else {
      i++;
    }
  }
  return out.join('');
}

const FUNCTION_START = /^[ \t]*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\b\s*\*?\s*([A-Za-z_$][\w$]*)?\s*[<(]/;
const CONST_START =
  /^([ \t]*(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?)=\s*(?:async\s+)?(function\b|<[^>]*>\s*\(|\(|[A-Za-z_$][\w$]*\s*=>)/;
const OPEN = '([{';
const CLOSE = ')]}';

export interface Measured {
  name: string;
  /** 1-based line of the declaration. */
  line: number;
  lines: number;
}

/** Index of the `}` that closes a function's body, its head starting at `from` (masked code). */
function endOfFunctionBody(masked: string, from: number): number {
  let depth = 0;
  let paramsClosed = false;
  for (let k = from; k < masked.length; k++) {
    const c = masked[k]!;
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) {
      depth--;
      if (depth === 0 && c === ')') paramsClosed = true;
      if (depth === 0 && c === '}' && paramsClosed) {
        // A `}` followed by `{`, `[`, `|`, `&` or `>` closed a return type: the body comes next.
        const after = /\S/.exec(masked.slice(k + 1, k + 200))?.[0] ?? '';
        if (!'{[|&>'.includes(after) || after === '') return k;
      }
      if (depth < 0) return k;
    }
  }
  return masked.length - 1;
}

/** Index where an arrow function's statement ends (starting at its `=`), or -1 if it is none. */
function endOfArrow(masked: string, from: number): number {
  let depth = 0;
  let k = from;
  for (; k < masked.length; k++) {
    const c = masked[k]!;
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth--;
    else if (depth === 0 && c === ';') return -1;
    else if (depth === 0 && c === '=' && masked[k + 1] === '>' && k > from) break;
    if (depth < 0) return -1;
  }
  k += 2;
  while (k < masked.length && /\s/.test(masked[k]!)) k++;
  if (masked[k] === '{') {
    depth = 0;
    for (; k < masked.length; k++) {
      const c = masked[k]!;
      if (OPEN.includes(c)) depth++;
      else if (CLOSE.includes(c) && --depth === 0) return k;
    }
    return masked.length - 1;
  }
  depth = 0; // an expression body: up to the `;` of the statement
  for (; k < masked.length; k++) {
    const c = masked[k]!;
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c) && --depth < 0) return k;
    else if (depth === 0 && c === ';') return k;
  }
  return masked.length - 1;
}

/** Every function declared at the start of a line, with its length in lines. */
export function measureFunctions(code: string): Measured[] {
  const masked = maskNonCode(code);
  const lineStarts = [0];
  for (let k = 0; k < masked.length; k++) if (masked[k] === '\n') lineStarts.push(k + 1);
  const lineOf = (index: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= index) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const found: Measured[] = [];
  lineStarts.forEach((start, index) => {
    const end = index + 1 < lineStarts.length ? lineStarts[index + 1]! - 1 : masked.length;
    const text = masked.slice(start, end);
    let close = -1;
    let name = '';
    const declared = FUNCTION_START.exec(text);
    const constant = declared ? null : CONST_START.exec(text);
    if (declared) {
      name = declared[1] ?? 'default';
      close = endOfFunctionBody(masked, start + declared[0].length - 1);
    } else if (constant) {
      name = constant[2]!;
      const head = start + constant[1]!.length;
      close = constant[3] === 'function' ? endOfFunctionBody(masked, head) : endOfArrow(masked, head);
    }
    if (close >= 0) found.push({ name, line: index + 1, lines: lineOf(close) - index });
  });
  return found;
}

/** Where the brackets of the masked code do not balance (a sign the masking went wrong), or null. */
export function unbalanced(code: string): string | null {
  const masked = maskNonCode(code);
  const stack: string[] = [];
  let line = 1;
  for (const c of masked) {
    if (c === '\n') line++;
    else if (OPEN.includes(c)) stack.push(c);
    else if (CLOSE.includes(c) && stack.pop() !== OPEN[CLOSE.indexOf(c)]) return `line ${line}: unmatched ${c}`;
  }
  return stack.length > 0 ? `${stack.length} bracket(s) left open at the end` : null;
}

function lineCount(code: string): number {
  return code === '' ? 0 : code.replace(/\n$/, '').split('\n').length;
}

describe('the islands’ sizes', () => {
  const files = sourceFiles(SRC).map((path) => ({ file: relative(SRC, path), code: readFileSync(path, 'utf8') }));

  it('the measuring reads every file with balanced brackets', () => {
    expect(files.length).toBeGreaterThan(50);
    const broken = files.flatMap(({ file, code }) => {
      const problem = unbalanced(code);
      return problem ? [`${file}: ${problem}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it(`no file over ${MAX_FILE_LINES} lines`, () => {
    const tooLong = files
      .map(({ file, code }) => ({ file, lines: lineCount(code) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong, `files over ${MAX_FILE_LINES} lines:\n${tooLong.join('\n')}`).toEqual([]);
  });

  it(`no function or component over ${MAX_FUNCTION_LINES} lines`, () => {
    const tooLong = files.flatMap(({ file, code }) =>
      measureFunctions(code)
        .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
        .map(({ name, line, lines }) => `${file}:${line} ${name}: ${lines} lines`),
    );
    expect(tooLong, `functions over ${MAX_FUNCTION_LINES} lines:\n${tooLong.join('\n')}`).toEqual([]);
    expect(files.reduce((sum, { code }) => sum + measureFunctions(code).length, 0)).toBeGreaterThan(100);
  });

  it('the measuring counts from the declaration to its closing brace', () => {
    expect(measureFunctions('function three() {\n  return 3;\n}\n')).toEqual([{ name: 'three', line: 1, lines: 3 }]);
    const code = [
      "import x from './x';", // 1
      'export default function Page({ a }: { a: string }): { b: number } | null {', // 2
      "  const text = '}}}' + \"{\" + `${a}}` + `${`{`}`; // }", // 3
      '  /* } */ const re = /[}/]+\\//g;', // 4
      '  const onClick = async (event: Event): Promise<void> => {', // 5
      "    if (/'}/.test(text)) return;", // 6
      '  };', // 7
      '  const twice = (n: number) =>', // 8
      '    n * 2;', // 9
      '  const notAFunction = (1 + 2) / 3;', // 10
      '  return <p className="x" data-a={re}>Don\'t {twice(1)} / </p>;', // 11
      '}', // 12
      'export const Wrapped = function () {', // 13
      '  return null;', // 14
      '};', // 15
    ].join('\n');
    expect(unbalanced(code)).toBeNull();
    expect(measureFunctions(code)).toEqual([
      { name: 'Page', line: 2, lines: 11 },
      { name: 'onClick', line: 5, lines: 3 },
      { name: 'twice', line: 8, lines: 2 },
      { name: 'Wrapped', line: 13, lines: 3 },
    ]);
  });
});
