/**
 * lib/toaster and lib/blueprint-toaster (docs/product.md §3 toast message, §4 pause on hover, §9 top-right,
 * 3000 ms default): created lazily, once; severities map onto Blueprint intents; summary in bold
 * with the detail below; life → timeout; closable:false hides the close button.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlayToaster } from '@blueprintjs/core';
import type { ReactElement } from 'react';
import { createLazyToaster, type AppToaster, type ToastMessage } from '../../../src/lib/toaster';
import { SEVERITY_INTENT, toastProps } from '../../../src/lib/blueprint-toaster';

describe('createLazyToaster', () => {
  it('creates the underlying toaster on the first toast only and forwards every toast', async () => {
    const show = vi.fn();
    const create = vi.fn(async (): Promise<AppToaster> => ({ show }));
    const toaster = createLazyToaster(create);
    expect(create).not.toHaveBeenCalled();
    const first: ToastMessage = { severity: 'success', summary: 'Hecho' };
    const second: ToastMessage = { severity: 'error', summary: 'Falló', detail: 'Sin conexión', life: 1000 };
    toaster.show(first);
    toaster.show(second);
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(2));
    expect(create).toHaveBeenCalledTimes(1);
    expect(show).toHaveBeenNthCalledWith(1, first);
    expect(show).toHaveBeenNthCalledWith(2, second);
  });
});

describe('toastProps (docs/product.md §3 → Blueprint)', () => {
  it('maps each severity onto an intent', () => {
    expect(SEVERITY_INTENT).toEqual({
      info: 'primary',
      success: 'success',
      warn: 'warning',
      error: 'danger',
      secondary: 'none',
      contrast: 'none',
    });
    expect(toastProps({ severity: 'contrast', summary: 'x' }).className).toContain('app-toast-contrast');
  });

  it('keeps the group as a class; a toast with the id of one on screen replaces it (Blueprint key)', async () => {
    expect(toastProps({ severity: 'info', summary: 'x', group: 'pagos' }).className).toContain('app-toast-group-pagos');
    const { OverlayToaster } = await import('@blueprintjs/core');
    const show = vi.fn();
    const spy = vi.spyOn(OverlayToaster, 'create').mockResolvedValue({ show } as never);
    const { createBlueprintAppToaster } = await import('../../../src/lib/blueprint-toaster');
    const toaster = await createBlueprintAppToaster();
    toaster.show({ severity: 'info', summary: 'Subiendo', id: 'upload-1' });
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ intent: 'primary' }), 'upload-1');
    spy.mockRestore();
  });

  it('uses life as the timeout (3000 ms by default) and shows a close button named "Cerrar" unless closable is false', () => {
    const closable = toastProps({ severity: 'info', summary: 'x' });
    expect(closable).toMatchObject({ timeout: 3000, isCloseButtonShown: false, action: { icon: 'cross', 'aria-label': 'Cerrar' } });
    const fixed = toastProps({ severity: 'warn', summary: 'x', life: 1000, closable: false });
    expect(fixed).toMatchObject({ intent: 'warning', timeout: 1000, isCloseButtonShown: false });
    expect(fixed.action).toBeUndefined();
  });

  it('the close button of a shown toast is "Cerrar" and dismisses it; nothing is named "Close"', async () => {
    const toaster = await OverlayToaster.create({ usePortal: false }, { container: document.body });
    toaster.show(toastProps({ severity: 'info', summary: 'Guardado' }));
    const close = await screen.findByRole('button', { name: 'Cerrar' });
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await userEvent.click(close);
    await waitFor(() => expect(screen.queryByText('Guardado')).toBeNull());
  });

  it('renders the summary in bold with the detail below', () => {
    const props = toastProps({ severity: 'warn', summary: 'DATOS INCOMPLETOS', detail: 'Rellene todos los campos para continuar' });
    render(props.message as ReactElement);
    expect(screen.getByText('DATOS INCOMPLETOS').tagName).toBe('STRONG');
    expect(screen.getByText('Rellene todos los campos para continuar').className).toBe('app-toast-detail');
  });
});
