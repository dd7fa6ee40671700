/** menu-search machine with fake timers (docs/product.md §2 shortcut search, §5, §9: 250 ms). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { filterMenuItems, menuSearchMachine } from '../../../src/machines/menu-search/menu-search.machine';

const items = [
  { nombre: 'Usuarios', ruta: '/Configuracion/Usuarios', icono: 'people' },
  { nombre: 'Roles y Permisos', ruta: '/Configuracion/RolesyPermisos', icono: 'key' },
  { nombre: 'Registro de Cuotas', ruta: '/Finanzas/RegistroCuotas', icono: 'calendar' },
  { nombre: 'Lotizaciones', ruta: '/Proyectos/Lotizaciones', icono: 'grid-view' },
];

function start() {
  const navigate = vi.fn();
  const actor = createActor(menuSearchMachine.provide({ actions: { navigate: (_, { to }) => navigate(to) } }), { input: { items } });
  actor.start();
  return { actor, navigate };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('filterMenuItems', () => {
  it('shows every item for an empty or blank query', () => {
    expect(filterMenuItems(items, '')).toHaveLength(4);
    expect(filterMenuItems(items, '   ')).toHaveLength(4);
  });
  it('matches a case-insensitive substring of nombre', () => {
    expect(filterMenuItems(items, 'RO').map((i) => i.nombre)).toEqual(['Roles y Permisos', 'Registro de Cuotas']);
    expect(filterMenuItems(items, 'lotiz').map((i) => i.nombre)).toEqual(['Lotizaciones']);
    expect(filterMenuItems(items, 'xyz')).toEqual([]);
  });
});

describe('menu-search machine', () => {
  it('search.flush (Enter) applies the typed query at once, without waiting 250 ms', () => {
    const { actor } = start();
    actor.send({ type: 'search.typed', query: 'lotiz' });
    expect(actor.getSnapshot().context.results).toHaveLength(4);
    actor.send({ type: 'search.flush' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.results.map((i) => i.nombre)).toEqual(['Lotizaciones']);
    vi.advanceTimersByTime(300); // the cancelled debounce does not fire again
    expect(actor.getSnapshot().context.results.map((i) => i.nombre)).toEqual(['Lotizaciones']);
  });

  it('applies the query only 250 ms after the last keystroke', () => {
    const { actor } = start();
    actor.send({ type: 'search.typed', query: 'u' });
    vi.advanceTimersByTime(200);
    actor.send({ type: 'search.typed', query: 'usu' });
    vi.advanceTimersByTime(249);
    expect(actor.getSnapshot().value).toBe('debouncing');
    expect(actor.getSnapshot().context.results).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.results.map((i) => i.nombre)).toEqual(['Usuarios']);
    expect(actor.getSnapshot().context.query).toBe('usu');
  });

  it('picking an item navigates to its route and clears the box', () => {
    const { actor, navigate } = start();
    actor.send({ type: 'search.typed', query: 'lot' });
    vi.advanceTimersByTime(250);
    actor.send({ type: 'search.picked', item: items[3]! });
    expect(navigate).toHaveBeenCalledWith('/Proyectos/Lotizaciones');
    expect(actor.getSnapshot().context.query).toBe('');
    expect(actor.getSnapshot().context.results).toHaveLength(4);
  });

  it('a pick during the delay cancels the pending filter', () => {
    const { actor } = start();
    actor.send({ type: 'search.typed', query: 'zzz' });
    actor.send({ type: 'search.picked', item: items[0]! });
    vi.advanceTimersByTime(500);
    expect(actor.getSnapshot().context.results).toHaveLength(4);
  });
});
