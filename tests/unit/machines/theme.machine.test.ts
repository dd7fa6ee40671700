/** theme machine (docs/product.md §2 theme configurator, §4 theme, §6 customers never save, §8 toasts, §9 defaults). */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { NOT_SAVED_TOAST, SAVED_TOAST, themeMachine } from '../../../src/machines/theme/theme.machine';
import { DEFAULT_STYLES, type StyleSettings, type UserType } from '../../../src/schemas/session';
import { themeVariables } from '../../../src/lib/theme';
import { ApiError } from '../../../src/api/client';

function start(userType: UserType | null, save: (styles: StyleSettings) => Promise<unknown> = async () => ({})) {
  const spies = { apply: vi.fn(), persistLocal: vi.fn(), menuModeChanged: vi.fn(), notify: vi.fn(), logError: vi.fn(), save: vi.fn(save) };
  const actor = createActor(
    themeMachine.provide({
      actions: {
        apply: (_, s) => spies.apply(s),
        persistLocal: (_, s) => spies.persistLocal(s),
        menuModeChanged: (_, m) => spies.menuModeChanged(m),
        notify: (_, t) => spies.notify(t),
        logError: (_, e) => spies.logError(e),
      },
      actors: { saveStyles: fromPromise(({ input }) => spies.save(input)) },
    }),
    { input: { userType } },
  );
  actor.start();
  return { actor, ...spies };
}

describe('theme machine', () => {
  it('defaults to emerald, Aura, static, light and applies them at start', () => {
    const { actor, apply, menuModeChanged } = start('COLLABORATOR');
    expect(actor.getSnapshot().context.styles).toEqual(DEFAULT_STYLES);
    expect(DEFAULT_STYLES).toMatchObject({ primary: 'emerald', preset: 'Aura', menuMode: 'static', darkTheme: false });
    expect(apply).toHaveBeenCalledWith(DEFAULT_STYLES);
    expect(menuModeChanged).toHaveBeenCalledWith('static');
  });

  it('applies and keeps every choice at once, without saving until Guardar', () => {
    const { actor, apply, persistLocal, save, menuModeChanged } = start('COLLABORATOR');
    actor.send({ type: 'theme.primaryChosen', primary: 'blue' });
    actor.send({ type: 'theme.surfaceChosen', surface: 'ocean' });
    actor.send({ type: 'theme.presetChosen', preset: 'Nora' });
    actor.send({ type: 'theme.menuModeChosen', menuMode: 'overlay' });
    const styles = { primary: 'blue', surface: 'ocean', preset: 'Nora', menuMode: 'overlay', darkTheme: false };
    expect(apply).toHaveBeenLastCalledWith(styles);
    expect(persistLocal).toHaveBeenLastCalledWith(styles);
    expect(menuModeChanged).toHaveBeenLastCalledWith('overlay');
    expect(save).not.toHaveBeenCalled();
  });

  it('staff: Guardar saves, toasts "Estilos guardados" for 1 s and closes the configurator', async () => {
    const { actor, save, notify } = start('COLLABORATOR');
    actor.send({ type: 'theme.configuratorOpened' });
    actor.send({ type: 'theme.primaryChosen', primary: 'rose' });
    actor.send({ type: 'theme.saveRequested' });
    await waitFor(actor, (s) => s.matches({ persistence: 'idle', configurator: 'closed' }));
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ primary: 'rose' }));
    expect(notify).toHaveBeenCalledWith(SAVED_TOAST);
    expect(SAVED_TOAST).toEqual({ severity: 'success', summary: 'Estilos guardados', life: 1000 });
  });

  it('staff: a failed Guardar is silent and the configurator stays open', async () => {
    const { actor, notify, logError } = start('COLLABORATOR', async () => Promise.reject(new Error('boom')));
    actor.send({ type: 'theme.configuratorOpened' });
    actor.send({ type: 'theme.saveRequested' });
    await waitFor(actor, (s) => s.matches({ persistence: 'idle' }) && logError.mock.calls.length > 0);
    expect(notify).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toEqual({ configurator: 'open', persistence: 'idle' });
  });

  it('staff: toggling dark mode saves at once; a failure toasts "Estilos no guardados" (1 s)', async () => {
    const { actor, save, notify } = start('COLLABORATOR', async () => Promise.reject(new Error('offline')));
    actor.send({ type: 'theme.configuratorOpened' });
    actor.send({ type: 'theme.darkToggled' });
    expect(actor.getSnapshot().value).toEqual({ configurator: 'open', persistence: 'savingFromTopbar' });
    expect(actor.getSnapshot().context.styles.darkTheme).toBe(true);
    await waitFor(actor, (s) => s.matches({ persistence: 'idle' }) && notify.mock.calls.length > 0);
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ darkTheme: true }));
    expect(notify).toHaveBeenCalledWith(NOT_SAVED_TOAST);
  });

  it.each([401, 402, 404])("staff: a dark-mode save answered %i is the session's (no toast, only logged)", async (status) => {
    const { actor, notify, logError } = start('COLLABORATOR', async () =>
      Promise.reject(new ApiError(status, 'Sesión no válida o expirada')),
    );
    actor.send({ type: 'theme.darkToggled' });
    await waitFor(actor, (s) => s.matches({ persistence: 'idle' }) && logError.mock.calls.length > 0);
    expect(notify).not.toHaveBeenCalled();
    expect(logError).toHaveBeenCalledWith({ what: 'save styles (top bar)', error: expect.any(ApiError) });
  });

  it('customers never save to the server but keep the styles locally', () => {
    const { actor, save, persistLocal } = start('CUSTOMER');
    actor.send({ type: 'theme.configuratorOpened' });
    actor.send({ type: 'theme.darkToggled' });
    actor.send({ type: 'theme.saveRequested' });
    expect(save).not.toHaveBeenCalled();
    expect(persistLocal).toHaveBeenLastCalledWith(expect.objectContaining({ darkTheme: true }));
    expect(actor.getSnapshot().matches({ configurator: 'closed' })).toBe(true);
  });

  it('restores the styles saved with the account at login', () => {
    const { actor, apply, menuModeChanged } = start(null);
    const saved: StyleSettings = { primary: 'violet', surface: 'zinc', preset: 'Lara', menuMode: 'overlay', darkTheme: true };
    actor.send({ type: 'theme.restored', styles: saved, userType: 'COLLABORATOR' });
    expect(actor.getSnapshot().context).toEqual({ styles: saved, userType: 'COLLABORATOR' });
    expect(apply).toHaveBeenLastCalledWith(saved);
    expect(menuModeChanged).toHaveBeenLastCalledWith('overlay');
    actor.send({ type: 'theme.restored', styles: null, userType: null });
    expect(actor.getSnapshot().context.styles).toEqual(DEFAULT_STYLES);
  });
});

describe('themeVariables', () => {
  // Shades chosen for WCAG 2.2 AA (docs/decisions.md "Colour contrast (WCAG 2.2 AA)"; every theme is
  // checked in tests/unit/lib/theme-contrast.test.ts).
  it('light: primary is the first shade white reads on at 4.5:1 (emerald 700), hover and active the next two; highlight 50; slate ground', () => {
    const v = themeVariables(DEFAULT_STYLES);
    expect(v['--p-primary-color']).toBe('#047857');
    expect(v['--p-primary-hover-color']).toBe('#065f46');
    expect(v['--p-primary-active-color']).toBe('#064e3b');
    expect(v['--p-primary-contrast-color']).toBe('#ffffff');
    expect(v['--p-highlight-background']).toBe('#ecfdf5');
    expect(v['--p-highlight-color']).toBe('#047857');
    expect(v['--p-ground-background']).toBe('#f1f5f9');
    // Slate 500 reads at 4.34:1 on the ground: muted text is slate 600.
    expect(v['--p-text-muted-color']).toBe('#475569');
    expect(themeVariables({ ...DEFAULT_STYLES, primary: 'indigo' })['--p-primary-color']).toBe('#4f46e5');
  });
  it('dark: primary 400 / hover 300 / active 200 with dark text, highlight the primary at 16 % over the card, zinc when no surface', () => {
    const v = themeVariables({ ...DEFAULT_STYLES, darkTheme: true });
    expect(v['--p-primary-color']).toBe('#34d399');
    expect(v['--p-primary-hover-color']).toBe('#6ee7b7');
    expect(v['--p-primary-contrast-color']).toBe('#18181b');
    expect(v['--p-highlight-background']).toBe('#1c362f');
    expect(v['--p-ground-background']).toBe('#09090b');
  });
  it('noir takes the surface palette; Nora has 2 px radii, no transition; every preset a 2 px focus ring', () => {
    const noir = themeVariables({ ...DEFAULT_STYLES, primary: 'noir', surface: 'soho', preset: 'Nora' });
    expect(noir['--p-primary-color']).toBe('#1d1e27');
    expect(noir['--p-content-border-radius']).toBe('2px');
    expect(noir['--p-focus-ring-width']).toBe('2px');
    expect(noir['--p-transition-duration']).toBe('0s');
    const lara = themeVariables({ ...DEFAULT_STYLES, preset: 'Lara' });
    expect(lara['--p-focus-ring-width']).toBe('2px');
    expect(lara['--p-focus-ring-color']).toBe('#047857');
    expect(lara['--p-form-field-padding']).toBe('0.625rem 0.75rem');
    expect(themeVariables(DEFAULT_STYLES)['--p-focus-ring-width']).toBe('2px');
  });
});
