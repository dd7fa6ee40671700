import type { ReactNode } from 'react';

/**
 * The box a wide table scrolls sideways in (docs/decisions.md "No page scrolls sideways"), reachable
 * and scrollable by keyboard: in the tab order (arrow keys scroll it once focused), a named region
 * ("Tabla de pagos") so a screen reader says what the stop is, and a visible focus ring (the
 * scroll box's CSS) — axe rule `scrollable-region-focusable` (docs/decisions.md "Customer journey
 * details (accessibility)").
 */
export function ScrollRegion({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
