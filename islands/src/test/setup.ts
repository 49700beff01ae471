import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Tell React that tests wrap updates in act() (Testing Library does this only with test globals).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});
