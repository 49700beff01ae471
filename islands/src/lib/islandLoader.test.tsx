import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { mountIslands, parseIslandProps, STATE_ATTRIBUTE } from './islandLoader';
import type { IslandModules } from './islandLoader';

function Greeting({ name, items }: { name: string; items?: string[] }) {
  return (
    <p data-testid="greeting">
      Hallo {name}
      {items && `: ${items.join(', ')}`}
    </p>
  );
}

function Broken(): never {
  throw new Error('kaputt');
}

function island(name: string, props?: string, fallback = '<span class="fallback">Server</span>'): HTMLElement {
  const element = document.createElement('div');
  element.dataset.island = name;
  if (props !== undefined) element.setAttribute('data-props', props);
  element.innerHTML = fallback;
  document.body.append(element);
  return element;
}

let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

async function mount(modules: IslandModules) {
  let results: Awaited<ReturnType<typeof mountIslands>> = [];
  await act(async () => {
    results = await mountIslands(document, modules);
  });
  return results;
}

const modules: IslandModules = {
  Greeting: () => Promise.resolve({ default: Greeting }),
};

describe('parseIslandProps', () => {
  it('parses a JSON object and treats a missing attribute as no props', () => {
    expect(parseIslandProps('{"a":1,"b":"<&\'>"}')).toEqual({ a: 1, b: "<&'>" });
    expect(parseIslandProps(null)).toEqual({});
    expect(parseIslandProps('  ')).toEqual({});
  });

  it('rejects invalid JSON and non-objects', () => {
    expect(() => parseIslandProps('{kein json')).toThrow();
    expect(() => parseIslandProps('[1,2]')).toThrow(TypeError);
    expect(() => parseIslandProps('null')).toThrow(TypeError);
    expect(() => parseIslandProps('"text"')).toThrow(TypeError);
  });
});

describe('mountIslands', () => {
  it('mounts the component with its props, replacing the fallback', async () => {
    const element = island('Greeting', '{"name":"Welt","items":["a","b"]}');

    const results = await mount(modules);

    expect(results).toEqual([{ element, name: 'Greeting', status: 'mounted' }]);
    expect(element.querySelector('.fallback')).toBeNull();
    expect(element.textContent).toBe('Hallo Welt: a, b');
    expect(element.getAttribute(STATE_ATTRIBUTE)).toBe('mounted');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('mounts every island on the page, loading each module only when used', async () => {
    const other = vi.fn(() => Promise.resolve({ default: Greeting }));
    island('Greeting', '{"name":"A"}');
    island('Greeting', '{"name":"B"}');

    await mount({ ...modules, Other: other });

    expect(Array.from(document.querySelectorAll('[data-testid=greeting]'), (e) => e.textContent)).toEqual([
      'Hallo A',
      'Hallo B',
    ]);
    expect(other).not.toHaveBeenCalled();
  });

  it('keeps the fallback and logs when data-props is not valid JSON', async () => {
    const element = island('Greeting', '{"name": ');

    const [result] = await mount(modules);

    expect(result?.status).toBe('error');
    expect(element.querySelector('.fallback')?.textContent).toBe('Server');
    expect(element.getAttribute(STATE_ATTRIBUTE)).toBe('error');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('invalid data-props'), expect.anything());
  });

  it('keeps the fallback and logs for an unknown island', async () => {
    const element = island('Nope', '{}');

    const [result] = await mount(modules);

    expect(result?.status).toBe('error');
    expect(element.innerHTML).toBe('<span class="fallback">Server</span>');
    expect(consoleError).toHaveBeenCalledWith('[islands] Nope: unknown island');
  });

  it('takes no inherited property of the registry for an island', async () => {
    island('constructor', '{}');

    const [result] = await mount(modules);

    expect(result?.status).toBe('error');
    expect(consoleError).toHaveBeenCalledWith('[islands] constructor: unknown island');
  });

  it('keeps the fallback when the island code cannot be loaded', async () => {
    const element = island('Greeting', '{"name":"X"}');

    const [result] = await mount({ Greeting: () => Promise.reject(new Error('404')) });

    expect(result?.status).toBe('error');
    expect(element.querySelector('.fallback')).not.toBeNull();
    expect(consoleError).toHaveBeenCalled();
  });

  it('mounts the good islands even when another one fails', async () => {
    island('Nope');
    const good = island('Greeting', '{"name":"gut"}');

    const results = await mount(modules);

    expect(results.map((r) => r.status)).toEqual(['error', 'mounted']);
    expect(good.textContent).toBe('Hallo gut');
  });

  it('does not mount an island twice', async () => {
    const element = island('Greeting', '{"name":"einmal"}');
    await mount(modules);

    const [again] = await mount(modules);

    expect(again?.status).toBe('error');
    expect(element.textContent).toBe('Hallo einmal');
  });

  it('puts the server fallback back when the island crashes', async () => {
    // Outside act() React reports the render error to the root's onUncaughtError, as in a browser.
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      const element = island('Broken', '{}');

      await mountIslands(document, { Broken: () => Promise.resolve({ default: Broken }) });

      await vi.waitFor(() => expect(element.getAttribute(STATE_ATTRIBUTE)).toBe('error'));
      expect(element.innerHTML).toBe('<span class="fallback">Server</span>');
      expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('crashed'), expect.any(Error));
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    }
  });
});
