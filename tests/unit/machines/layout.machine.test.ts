/** layout machine (issue "Shell"; docs/product.md §2 Layout, §9 breakpoint 991 px; docs/product.md §2). */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { layoutMachine, type MenuMode } from '../../../src/machines/layout/layout.machine';

function start(width: number, menuMode: MenuMode = 'static') {
  const actor = createActor(layoutMachine, { input: { width, menuMode } });
  actor.start();
  return actor;
}

describe('layout machine', () => {
  it('starts static and open on desktop, mobile and closed at 991 px or less', () => {
    expect(start(1366).getSnapshot().value).toEqual({ static: 'open' });
    expect(start(992).getSnapshot().value).toEqual({ static: 'open' });
    expect(start(991).getSnapshot().value).toEqual({ mobile: 'closed' });
    expect(start(390).getSnapshot().value).toEqual({ mobile: 'closed' });
    expect(start(1366, 'overlay').getSnapshot().value).toEqual({ overlay: 'closed' });
  });

  it('the toggle collapses and restores the static menu above the breakpoint', () => {
    const actor = start(1366);
    actor.send({ type: 'menu.toggle' });
    expect(actor.getSnapshot().value).toEqual({ static: 'closed' });
    actor.send({ type: 'menu.toggle' });
    expect(actor.getSnapshot().value).toEqual({ static: 'open' });
  });

  it('outside clicks and chosen links never close the static menu', () => {
    const actor = start(1366);
    actor.send({ type: 'layout.outsideClicked' });
    actor.send({ type: 'menu.linkChosen' });
    expect(actor.getSnapshot().value).toEqual({ static: 'open' });
  });

  it.each([
    ['mobile', 390, 'static'],
    ['overlay', 1366, 'overlay'],
  ] as const)('the %s menu opens with the toggle and closes on toggle, outside click or a chosen link', (mode, width, menuMode) => {
    const actor = start(width, menuMode);
    actor.send({ type: 'menu.toggle' });
    expect(actor.getSnapshot().value).toEqual({ [mode]: 'open' });
    actor.send({ type: 'menu.toggle' });
    expect(actor.getSnapshot().value).toEqual({ [mode]: 'closed' });
    actor.send({ type: 'menu.toggle' });
    actor.send({ type: 'layout.outsideClicked' });
    expect(actor.getSnapshot().value).toEqual({ [mode]: 'closed' });
    actor.send({ type: 'menu.toggle' });
    actor.send({ type: 'menu.linkChosen' });
    expect(actor.getSnapshot().value).toEqual({ [mode]: 'closed' });
  });

  it('crossing the breakpoint switches mode; resizing within one side keeps the state', () => {
    const actor = start(1366);
    actor.send({ type: 'menu.toggle' });
    actor.send({ type: 'layout.resized', width: 1200 });
    expect(actor.getSnapshot().value).toEqual({ static: 'closed' });
    actor.send({ type: 'layout.resized', width: 800 });
    expect(actor.getSnapshot().value).toEqual({ mobile: 'closed' });
    actor.send({ type: 'menu.toggle' });
    actor.send({ type: 'layout.resized', width: 700 });
    expect(actor.getSnapshot().value).toEqual({ mobile: 'open' });
    actor.send({ type: 'layout.resized', width: 1280 });
    expect(actor.getSnapshot().value).toEqual({ static: 'open' });
    expect(actor.getSnapshot().context.width).toBe(1280);
  });

  it('the menu mode switches static ↔ overlay on desktop and waits on a phone', () => {
    const actor = start(1366);
    actor.send({ type: 'layout.menuModeChanged', menuMode: 'overlay' });
    expect(actor.getSnapshot().value).toEqual({ overlay: 'closed' });
    actor.send({ type: 'layout.resized', width: 390 });
    actor.send({ type: 'layout.menuModeChanged', menuMode: 'static' });
    expect(actor.getSnapshot().value).toEqual({ mobile: 'closed' });
    actor.send({ type: 'layout.resized', width: 1366 });
    expect(actor.getSnapshot().value).toEqual({ static: 'open' });
  });

  it('groups toggle on click and the active item opens its groups', () => {
    const actor = start(1366);
    actor.send({ type: 'menu.groupToggled', key: '1-0' });
    expect(actor.getSnapshot().context.openGroups).toEqual(['1-0']);
    actor.send({ type: 'menu.groupToggled', key: '1-0' });
    expect(actor.getSnapshot().context.openGroups).toEqual([]);
    actor.send({ type: 'menu.activeGroupsChanged', keys: ['1-3'] });
    expect(actor.getSnapshot().context.openGroups).toEqual(['1-3']);
  });

  it('opening a group closes the others that hold no active item (docs/product.md §2: groups do not pile up)', () => {
    const actor = start(1366);
    actor.send({ type: 'menu.groupToggled', key: '1-0' }); // Configuración
    actor.send({ type: 'menu.groupToggled', key: '1-1' }); // Administración
    expect(actor.getSnapshot().context.openGroups).toEqual(['1-1']);
    actor.send({ type: 'menu.activeGroupsChanged', keys: ['1-0'] }); // on Usuarios
    actor.send({ type: 'menu.groupToggled', key: '1-2' }); // Finanzas: Configuración stays open, it holds the active link
    expect(actor.getSnapshot().context.openGroups).toEqual(['1-0', '1-2']);
    actor.send({ type: 'menu.groupToggled', key: '1-3-1' }); // a nested group opens with its parent
    expect(actor.getSnapshot().context.openGroups).toEqual(['1-0', '1-3', '1-3-1']);
    actor.send({ type: 'menu.groupToggled', key: '1-3' }); // closing the parent closes what is inside it
    expect(actor.getSnapshot().context.openGroups).toEqual(['1-0']);
  });

  it('navigating opens exactly the active link’s groups, and none for a top-level link', () => {
    const actor = start(1366);
    actor.send({ type: 'menu.activeGroupsChanged', keys: ['1-0'] }); // Usuarios
    actor.send({ type: 'menu.groupToggled', key: '1-1' });
    actor.send({ type: 'menu.activeGroupsChanged', keys: ['1-2'] }); // Bancos
    expect(actor.getSnapshot().context.openGroups).toEqual(['1-2']);
    actor.send({ type: 'menu.activeGroupsChanged', keys: [] }); // Dashboard
    expect(actor.getSnapshot().context.openGroups).toEqual([]);
  });
});
