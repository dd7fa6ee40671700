/**
 * The shell skeleton (issue "Production grade"; src/lib/shell-skeleton.tsx): what the app draws while
 * the authenticated area's code loads — the layout frame with the route's title, or Inicio's own page
 * — then the real shell in its place. The server draws the same markup (tests/server/http.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ShellSkeleton } from '../../src/lib/shell-skeleton';
import { drawHomeFromSession } from '../../src/lib/session-first-paint';
import { homeTemplates } from '../../server/preload-hints';
import { renderApp } from './render-app';
import { memoryStore, seedSession } from '../unit/support/fakes';

function loggedInStore() {
  const store = memoryStore();
  seedSession(store);
  return store;
}

describe('shell skeleton', () => {
  // First in this file: the shell's chunk has not been loaded by an earlier render.
  it('shows the route title in the layout frame until the shell has loaded, then the screen', async () => {
    const { container } = renderApp('/CONFIGURACION/usuarios', { store: loggedInStore() });
    const skeleton = container.querySelector('.shell-skeleton');
    expect(skeleton).not.toBeNull();
    expect(skeleton!.getAttribute('aria-busy')).toBe('true');
    expect(skeleton!.querySelector('h1')!.textContent).toBe('Usuarios');
    // The real screen replaces it: the menu, the screen's own controls, no skeleton left.
    expect(await screen.findByRole('button', { name: 'Nuevo usuario' })).toBeTruthy();
    expect(container.querySelector('.shell-skeleton')).toBeNull();
    expect(screen.getAllByRole('heading', { level: 1, name: 'Usuarios' })).toHaveLength(1);
  });

  it('is the same markup the server draws (one component for both)', () => {
    const html = renderToStaticMarkup(<ShellSkeleton title="Lotizaciones" />);
    expect(html).toContain('<h1 class="bp6-heading page-title">Lotizaciones</h1>');
    expect(html).toContain('class="layout-topbar"');
    expect(html).toContain('class="layout-main-container"');
    expect(renderToStaticMarkup(<ShellSkeleton title="<b>x</b>" />)).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('Inicio draws its own page (greeting and title) inside the frame, with no wait for the shell', async () => {
    renderApp('/', { store: loggedInStore() });
    expect(await screen.findByRole('heading', { name: 'Hola, Lucía' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Inicio' })).toBeTruthy();
  });

  it.each([
    ['with an address', {}],
    ['without an address', { local_active: JSON.stringify([{ id: 2, name: 'Oficina Piura' }]) }],
    ['without a location', { local_active: '[]' }],
  ])('Inicio drawn from the stored session before the app (%s) is the markup the app draws', async (_, extra) => {
    const store = loggedInStore();
    for (const [key, value] of Object.entries(extra)) store.setItem(key, value);
    // What src/boot.ts draws from the server's templates, before any of the app's code has arrived…
    const early = document.createElement('div');
    expect(drawHomeFromSession(homeTemplates(), () => store, early)).toBe(true);
    expect(early.querySelector('.shell-skeleton')).not.toBeNull();
    // …and what the app draws in its place: the same title and welcome card, with the same boxes.
    const { container } = renderApp('/', { store });
    await screen.findByRole('heading', { name: 'Hola, Lucía' });
    const card = (root: ParentNode) => root.querySelector('.home-welcome')!.outerHTML;
    expect(card(early)).toBe(card(container));
    expect(early.querySelector('h1')!.outerHTML).toBe(container.querySelector('.home h1')!.outerHTML);
    const skeleton = document.createElement('div');
    skeleton.innerHTML = renderToStaticMarkup(<ShellSkeleton title="Inicio" />);
    expect(early.querySelector('.layout-topbar')!.outerHTML).toBe(skeleton.querySelector('.layout-topbar')!.outerHTML);
  });
});
