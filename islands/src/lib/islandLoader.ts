// Finds the server-rendered island placeholders and mounts the matching React component.
//
//   <div data-island="Name" data-props='{"json": true}'>server-rendered fallback</div>
//
// The component's code is loaded lazily (one chunk per island); until it has arrived the
// fallback stays visible. A bad `data-props`, an unknown name or a failed chunk load is logged
// and leaves the fallback in place. If a mounted island crashes, the fallback is put back.
import { createElement, StrictMode } from 'react';
import type { ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

// Props differ per island; each component checks its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type IslandComponent = ComponentType<any>;
export interface IslandModule {
  default: IslandComponent;
}
/** The island registry (src/main.tsx): the name the server writes in `data-island` → lazy import. */
export type IslandModules = Record<string, () => Promise<IslandModule>>;

/** Set on every island element: `loading` → `mounted`, or `error`. Handy for browser tests. */
export const STATE_ATTRIBUTE = 'data-island-state';

export type IslandResult =
  | { element: HTMLElement; name: string; status: 'mounted' }
  | { element: HTMLElement; name: string; status: 'error'; reason: string };

/** Parses `data-props`; a missing attribute means no props. Throws on anything but a JSON object. */
export function parseIslandProps(raw: string | null): Record<string, unknown> {
  if (raw === null || raw.trim() === '') return {};
  const value: unknown = JSON.parse(raw);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('data-props must be a JSON object');
  }
  return value as Record<string, unknown>;
}

function fail(element: HTMLElement, name: string, reason: string, cause?: unknown): IslandResult {
  element.setAttribute(STATE_ATTRIBUTE, 'error');
  if (cause === undefined) console.error(`[islands] ${name}: ${reason}`);
  else console.error(`[islands] ${name}: ${reason}`, cause);
  return { element, name, status: 'error', reason };
}

export async function mountIsland(element: HTMLElement, modules: IslandModules): Promise<IslandResult> {
  const name = element.dataset.island ?? '';
  if (element.hasAttribute(STATE_ATTRIBUTE)) {
    return { element, name, status: 'error', reason: 'already handled' };
  }
  element.setAttribute(STATE_ATTRIBUTE, 'loading');

  let props: Record<string, unknown>;
  try {
    props = parseIslandProps(element.getAttribute('data-props'));
  } catch (cause) {
    return fail(element, name, 'invalid data-props (JSON object expected)', cause);
  }

  // Own keys only: a name such as `constructor` is no island.
  const load = Object.hasOwn(modules, name) ? modules[name] : undefined;
  if (!load) return fail(element, name, 'unknown island');

  let Component: IslandComponent;
  try {
    Component = (await load()).default;
  } catch (cause) {
    return fail(element, name, 'could not load the island code', cause);
  }
  if (typeof Component !== 'function' && typeof Component !== 'object') {
    return fail(element, name, 'the island module has no default export');
  }

  const fallback = element.innerHTML;
  const root = createRoot(element, {
    onUncaughtError(error) {
      console.error(`[islands] ${name}: crashed, showing the server-rendered content again`, error);
      // React is still inside its commit here: unmount on the next task, then restore.
      window.setTimeout(() => {
        root.unmount();
        element.innerHTML = fallback;
        element.setAttribute(STATE_ATTRIBUTE, 'error');
      }, 0);
    },
  });
  flushSync(() => {
    root.render(createElement(StrictMode, null, createElement(Component, props)));
  });
  if (element.getAttribute(STATE_ATTRIBUTE) === 'loading') {
    element.setAttribute(STATE_ATTRIBUTE, 'mounted');
  }
  return { element, name, status: 'mounted' };
}

/** Mounts every `[data-island]` below `scope` (in parallel) and reports how each went. */
export function mountIslands(scope: ParentNode, modules: IslandModules): Promise<IslandResult[]> {
  const elements = Array.from(scope.querySelectorAll<HTMLElement>('[data-island]'));
  return Promise.all(elements.map((element) => mountIsland(element, modules)));
}
