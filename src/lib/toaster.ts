import type { Intent, Toaster } from '@blueprintjs/core';

/**
 * The app-wide toaster (SPEC §9: default position top-right, 3000 ms for validation and password
 * messages). Blueprint's OverlayToaster is loaded and created on the first toast, so tests and
 * pages that never toast never mount it (nor download it).
 */

/** A toast as the machines ask for it: Blueprint intent, Spanish message, lifetime in ms. */
export interface ToastRequest {
  intent: Intent;
  message: string;
  /** Lifetime in milliseconds (default 3000, SPEC §9). */
  timeout?: number;
}

/** What machines and views use to show toasts (a fake in tests). */
export interface AppToaster {
  show(toast: ToastRequest): void;
}

/** Default toast lifetime in ms (SPEC §9). */
export const TOAST_LIFE_MS = 3000;

/**
 * Creates a lazy Blueprint toaster at the top-right of the page.
 * @param create factory of the underlying Blueprint toaster (injectable for tests).
 */
export function createLazyToaster(
  create: () => Promise<Toaster> = () => import('./blueprint-toaster').then((m) => m.createBlueprintToaster()),
): AppToaster {
  let pending: Promise<Toaster> | null = null;
  return {
    show({ intent, message, timeout = TOAST_LIFE_MS }) {
      pending ??= create();
      pending
        .then((toaster) => toaster.show({ intent, message, timeout }))
        .catch((error: unknown) => console.error('No se pudo mostrar la notificación', error));
    },
  };
}

/** Toast severities of SPEC §3. */
export type ToastSeverity = 'info' | 'success' | 'warn' | 'error' | 'secondary' | 'contrast';

/**
 * A toast in SPEC §3's words: severity, summary (title), detail, life (ms), closable.
 * Rendered top-right (SPEC §9), paused on hover, closable unless `closable` is false.
 */
export interface ToastMessage {
  severity: ToastSeverity;
  summary: string;
  detail?: string;
  /** Lifetime in ms (SPEC §9: 3000 for validation and password messages, 1000 for styles). */
  life?: number;
  closable?: boolean;
}
