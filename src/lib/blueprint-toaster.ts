import { createElement } from 'react';
import { OverlayToaster, Position, type Intent, type IconName, type ToastProps, type Toaster } from '@blueprintjs/core';
import { TOAST_LIFE_MS, type AppToaster, type ToastMessage, type ToastSeverity } from './toaster';

/**
 * Blueprint side of the app toaster (docs/product.md §3 toast message, §4, §9): OverlayToaster at the
 * top-right, and the mapping of a {@link ToastMessage} onto a Blueprint toast. Its own module so
 * that `createLazyToaster` imports it on the first toast: the overlay code (Overlay2, transitions)
 * is not part of the login page's bundle.
 */

/** Severity → Blueprint intent (secondary and contrast have none; contrast gets a dark style). */
export const SEVERITY_INTENT: Record<ToastSeverity, Intent> = {
  info: 'primary',
  success: 'success',
  warn: 'warning',
  error: 'danger',
  secondary: 'none',
  contrast: 'none',
};

const SEVERITY_ICON: Partial<Record<ToastSeverity, IconName>> = {
  info: 'info-sign',
  success: 'tick-circle',
  warn: 'warning-sign',
  error: 'error',
};

/**
 * The toast's close button, named in Spanish: Blueprint draws its own as "Close" with no way to
 * rename it, so the app's toasts (which carry no action) draw it as the toast's action — a
 * click on it dismisses the toast the same way (docs/decisions.md "Accessible names and ARIA references").
 */
const CLOSE_ACTION: NonNullable<ToastProps['action']> & { 'aria-label': string; title: string } = {
  icon: 'cross',
  'aria-label': 'Cerrar',
  title: 'Cerrar',
};

/**
 * Blueprint toast props of a docs/product.md §3 toast: the summary in bold with the detail below it,
 * `timeout = life` (3000 ms by default), a close button "Cerrar" unless `closable` is false.
 */
export function toastProps(toast: ToastMessage): ToastProps {
  const icon = SEVERITY_ICON[toast.severity];
  return {
    intent: SEVERITY_INTENT[toast.severity],
    ...(icon ? { icon } : {}),
    className: `app-toast app-toast-${toast.severity}${toast.group ? ` app-toast-group-${toast.group}` : ''}`,
    timeout: toast.life ?? TOAST_LIFE_MS,
    isCloseButtonShown: false,
    ...(toast.closable !== false ? { action: CLOSE_ACTION } : {}),
    message: createElement(
      'div',
      { className: 'app-toast-body' },
      createElement('strong', { className: 'app-toast-summary' }, toast.summary),
      toast.detail ? createElement('div', { className: 'app-toast-detail' }, toast.detail) : null,
    ),
  };
}

/** Creates Blueprint's OverlayToaster at the top-right (docs/product.md §9), at most 5 toasts at once. */
export function createBlueprintToaster(): Promise<Toaster> {
  return OverlayToaster.create({ position: Position.TOP_RIGHT, maxToasts: 5, className: 'app-toaster' });
}

/** The app toaster over Blueprint's. */
export async function createBlueprintAppToaster(): Promise<AppToaster> {
  const toaster = await createBlueprintToaster();
  return { show: (toast) => void toaster.show(toastProps(toast), toast.id) };
}
