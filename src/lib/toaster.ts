/**
 * The app-wide toaster (docs/product.md §3 "Toast message", §4 "Toasts auto-close after their life and pause
 * on hover", §9: default position top-right, 3000 ms for validation and password messages).
 * Machines and views ask for a {@link ToastMessage} in docs/product.md §3's words; Blueprint's OverlayToaster
 * (see blueprint-toaster.ts) is loaded and created on the first toast, so pages that never toast
 * never download it.
 */

/** Toast severities of docs/product.md §3. */
export type ToastSeverity = 'info' | 'success' | 'warn' | 'error' | 'secondary' | 'contrast';

/**
 * A toast in docs/product.md §3's words: severity, summary (bold title), detail (text below), life (ms),
 * closable (default true). Rendered top-right (docs/product.md §9); Blueprint pauses the timer on hover.
 */
export interface ToastMessage {
  severity: ToastSeverity;
  summary: string;
  detail?: string;
  /** Lifetime in ms (docs/product.md §9: 3000 for validation and password messages, 1000 for styles). Default 3000. */
  life?: number;
  /** false hides the close button. Default true. */
  closable?: boolean;
  /** Identity: showing a toast with the id of one still on screen replaces it instead of stacking. */
  id?: string;
  /**
   * Which toaster shows it (PrimeVue's `group`). Parcela has one, top-right; a group is kept as a
   * CSS class `app-toast-group-<group>` so a screen can style its own.
   */
  group?: string;
}

/** What machines and views use to show toasts (a fake in tests). */
export interface AppToaster {
  show(toast: ToastMessage): void;
}

/** Default toast lifetime in ms (docs/product.md §9). */
export const TOAST_LIFE_MS = 3000;

/**
 * Creates the lazy top-right toaster.
 * @param create factory of the underlying toaster (Blueprint's, loaded on the first toast;
 *   injectable for tests).
 */
export function createLazyToaster(
  create: () => Promise<AppToaster> = () => import('./blueprint-toaster').then((m) => m.createBlueprintAppToaster()),
): AppToaster {
  let pending: Promise<AppToaster> | null = null;
  return {
    show(toast) {
      pending ??= create();
      pending.then((toaster) => toaster.show(toast)).catch((error: unknown) => console.error('No se pudo mostrar la notificación', error));
    },
  };
}
