import type { IconName } from '@blueprintjs/core';

/**
 * The icon of Inicio's first paint (the active location's), with its size in px: its paths are
 * loaded before that paint — by the server for its templates (server/preload-hints.ts), by the app
 * before its first render (src/views/router/screens.ts) — so the page never draws it empty first.
 */
export const HOME_LOCAL_ICON = { icon: 'office', size: 20 } as const satisfies { icon: IconName; size: number };
