import { useLayoutEffect, useRef } from 'react';
import { Classes } from '@blueprintjs/core';

/**
 * Focus given back to a dialog's trigger when the dialog closes (docs/decisions.md "Keyboard and
 * focus"; WCAG 2.4.3 focus order). Blueprint's Overlay2 returns focus to the element that was
 * focused when it opened, but only after its closing transition and only when that element still
 * exists: a dialog whose component unmounts when its machine stops (PagoYape) never gets there, and
 * a dialog opened from a row's menu recorded the menu item, which is gone — focus fell on <body>.
 * {@link useReturnFocus} records the trigger itself and gives focus back at once when it would be
 * lost; {@link setReturnFocusTarget} names the trigger when the element that opened the dialog is
 * not the one to come back to (a menu item: the row's "Acciones" button is).
 */

/** How long a named trigger waits for its dialog to open (a row action opens it in the same click). */
const PENDING_TTL_MS = 2000;

let pending: { element: HTMLElement; at: number } | null = null;

/**
 * Names the element focus returns to when the dialog about to open closes: a row's "Acciones"
 * button whose menu item opens an editor, a drawer or an alert (the menu item itself disappears
 * with its menu). Taken by the next dialog that opens within a moment.
 */
export function setReturnFocusTarget(element: HTMLElement | null): void {
  pending = element ? { element, at: performance.now() } : null;
}

/** The named trigger when fresh (and forgets it), else null. */
function takePendingTarget(): HTMLElement | null {
  const taken = pending;
  pending = null;
  if (!taken || performance.now() - taken.at > PENDING_TTL_MS || !taken.element.isConnected) return null;
  return taken.element;
}

/**
 * Whether keyboard focus is lost: on <body>, on an element no longer in the page, or inside an
 * overlay that is closing (Blueprint keeps its DOM during the exit transition, without the open class).
 */
export function focusIsLost(doc: Document = document): boolean {
  const active = doc.activeElement;
  if (!active || active === doc.body || !active.isConnected) return true;
  const overlay = active.closest(`.${Classes.OVERLAY}`);
  return overlay !== null && !overlay.classList.contains(Classes.OVERLAY_OPEN);
}

/** The element a dialog opening now should give focus back to. */
function currentTrigger(): HTMLElement | null {
  const named = takePendingTarget();
  if (named) return named;
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/** Focuses `trigger` if it is still in the page and focus was lost meanwhile. */
function giveBack(trigger: HTMLElement | null): void {
  if (trigger && trigger.isConnected && focusIsLost()) trigger.focus();
}

/**
 * Gives focus back to the dialog's trigger when the dialog closes (`open` turns false) or its
 * component unmounts, if focus would otherwise be lost (see {@link focusIsLost}): the element
 * focused when `open` turned true, or the one named by {@link setReturnFocusTarget}. Focus that
 * went somewhere on purpose meanwhile (another dialog, a new page's heading) is left alone.
 * @param open whether the dialog is open (a dialog mounted only while open passes true).
 */
export function useReturnFocus(open: boolean): void {
  const trigger = useRef<HTMLElement | null>(null);
  // A layout effect runs before Blueprint's Overlay2 moves focus into the dialog (its effect, then
  // an animation frame), so the element focused now is the trigger.
  useLayoutEffect(() => {
    if (!open) return;
    trigger.current = currentTrigger();
    return () => {
      const element = trigger.current;
      trigger.current = null;
      // After the commit that closed (or removed) the dialog: its buttons may still hold focus
      // during the closing transition, or focus may already be on <body>.
      queueMicrotask(() => giveBack(element));
    };
  }, [open]);
}
