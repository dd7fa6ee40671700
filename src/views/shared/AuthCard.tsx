import type { ReactNode } from 'react';
import { Card, H1 } from '@blueprintjs/core';
import { Link } from 'wouter';
import { Brand } from './Brand';
import { APP_VERSION } from './version';

/**
 * Centred card layout of the public auth screens (issue "Foundation"): logo and "Parcela" on top,
 * the screen title, an optional subtitle, the content and a small footer. Light theme; the card
 * takes the full width below 480 px (responsive down to 390 px). The page is the `<main>` landmark
 * and the title its one `<h1>` (docs/decisions.md "Accessible names and ARIA references").
 */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  wide = false,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links shown under the card content. */
  footer?: ReactNode;
  /** Wider card (registration form). */
  wide?: boolean;
}) {
  return (
    <main className="auth-page">
      <Card className={wide ? 'auth-card auth-card-wide' : 'auth-card'} elevation={2}>
        <Link href="/landing" className="auth-brand" aria-label="Parcela, ir a la página principal">
          <Brand size={44} />
        </Link>
        <H1 className="auth-title">{title}</H1>
        {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
        {children}
        {footer ? <div className="auth-links">{footer}</div> : null}
      </Card>
      <p className="auth-page-footer">Parcela · {APP_VERSION}</p>
    </main>
  );
}
