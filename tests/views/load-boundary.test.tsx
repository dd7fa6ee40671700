/** LoadBoundary (performance, issue "Foundation"): spinner while a screen loads, a message if it cannot. */
import { lazy } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { LoadBoundary } from '../../src/views/shared/LoadBoundary';

function renderBoundary(children: React.ReactNode) {
  const { hook } = memoryLocation({ path: '/landing' });
  return render(
    <Router hook={hook}>
      <LoadBoundary full>{children}</LoadBoundary>
    </Router>,
  );
}

describe('LoadBoundary', () => {
  it('shows a spinner, then the screen', async () => {
    let resolve!: () => void;
    const ready = new Promise<void>((r) => (resolve = r));
    const Screen = lazy(async () => {
      await ready;
      return { default: () => <h1>Pantalla</h1> };
    });
    renderBoundary(<Screen />);
    expect(screen.getByRole('progressbar', { name: 'Cargando' })).toBeTruthy();
    resolve();
    expect(await screen.findByRole('heading', { name: 'Pantalla' })).toBeTruthy();
  });

  it('says so when the screen cannot be loaded', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Screen = lazy(async () => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    renderBoundary(<Screen />);
    expect(await screen.findByRole('heading', { name: 'No se pudo cargar la página' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
    error.mockRestore();
  });
});
