/**
 * Setup of the "unit" vitest project (jsdom): Testing Library cleanup after each test, a clean
 * localStorage, and the browser APIs jsdom lacks that Blueprint touches (matchMedia, ResizeObserver,
 * scrollTo).
 */
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// Lazy screens load their chunk on first render, and the first import of a screen (vitest transforms
// it and its libraries) took 5.0 s for the public map on a 2-core machine running a second test
// suite beside this one; so `findBy…`/`waitFor` wait up to 15 s (the unit project's test timeout is
// 20 s). A real failure still fails, only later.
configure({ asyncUtilTimeout: 15_000 });

if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      configurable: true,
      value: (query: string): MediaQueryList => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }),
    });
  }
  if (!('ResizeObserver' in window)) {
    class ResizeObserverStub {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
    Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
  }
  window.scrollTo = (() => {}) as typeof window.scrollTo;
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  if (typeof localStorage !== 'undefined') localStorage.clear();
  if (typeof document !== 'undefined') document.title = '';
});
