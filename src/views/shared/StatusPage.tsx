import type { ReactNode } from 'react';
import { AnchorButton, Card, NonIdealState, type IconName } from '@blueprintjs/core';
import { Link } from 'wouter';
import { Brand } from './Brand';

/**
 * Full-page NonIdealState of the public status screens (access denied, error, payment missing,
 * not found, public map), centred on the page with the logo above (issue "Foundation").
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
    <div className="auth-page">
      <Card className="auth-card status-card" elevation={2}>
        <Brand size={40} className="status-brand" />
        <NonIdealState
          icon={icon}
          title={title}
          description={description}
          action={
            action ? (
              <Link href={action.to} asChild>
                <AnchorButton intent="primary" size="large" text={action.text} />
              </Link>
            ) : undefined
          }
        />
      </Card>
    </div>
  );
}
