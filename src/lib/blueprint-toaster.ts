import { OverlayToaster, Position, type Toaster } from '@blueprintjs/core';

/**
 * Creates Blueprint's OverlayToaster at the top-right (SPEC §9). Its own module so that
 * `createLazyToaster` imports it on the first toast: the overlay code (Overlay2, transitions) is
 * not part of the login page's bundle.
 */
export function createBlueprintToaster(): Promise<Toaster> {
  return OverlayToaster.create({ position: Position.TOP_RIGHT, maxToasts: 5 });
}
