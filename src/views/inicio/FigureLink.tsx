import type { ReactNode } from 'react';
import { Link } from 'wouter';

/**
 * A figure of Inicio as a link to the list it totals (docs/dashboard.md: "each figure equals the
 * total of the list its link opens"), opened in the app (wouter) with the list's filters; `href`
 * null (a list the user may not open): the figure as plain text.
 */
export function FigureLink({ href, children, label }: { href: string | null; children: ReactNode; label?: string }) {
  if (href === null) return <span className="dashboard-figure-text">{children}</span>;
  return (
    <Link href={href} className="dashboard-figure" {...(label ? { 'aria-label': label } : {})}>
      {children}
    </Link>
  );
}
