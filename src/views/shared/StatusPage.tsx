import type { ReactNode } from 'react';
import { AnchorButton, Card, H1, NonIdealState, type IconName } from '@blueprintjs/core';
import { Link } from 'wouter';
import { Brand } from './Brand';

/**
 * Full-page NonIdealState of the public status screens (access denied, error, payment missing,
 * not found, public map), centred on the page with the logo above (issue "Foundation"). The page
 * is the `<main>` landmark and the title its `<h1>` (NonIdealState would draw an h4), sized as
 * NonIdealState's title (docs/decisions.md "Accessible names and ARIA references").
 */
export function StatusPage({
  icon,
  title,
  description,
  action,
}: {
  icon: IconName;
  title: string;
  description: ReactNode;
  /** Button label and target route. */
  action?: { text: string; to: string };
}) {
  return (
    <main className="auth-page">
      <Card className="auth-card status-card" elevation={2}>
        <Brand size={40} className="status-brand" />
        <NonIdealState
          icon={icon}
          description={
            <div>
              <H1 className="status-title">{title}</H1>
              <div>{description}</div>
            </div>
          }
          action={
            action ? (
              <Link href={action.to} asChild>
                <AnchorButton intent="primary" size="large" text={action.text} />
              </Link>
            ) : undefined
          }
        />
      </Card>
    </main>
  );
}
