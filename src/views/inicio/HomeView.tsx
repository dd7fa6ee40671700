import type { ReactNode } from 'react';
import { Card, H2, H3, H4, Icon, type IconName } from '@blueprintjs/core';
import { Link } from 'wouter';
import { AUTH_ROUTES } from '../../config/paths';
import { HOME_LOCAL_ICON } from './home-icon';
import type { Local, SessionUser } from '../../schemas/session';

/** What Inicio shows of the signed-in user: names and the menu groups of `user_details` (docs/product.md §3). */
export type HomeUser = Pick<SessionUser, 'name' | 'surname' | 'permissions_names'>;

/**
 * Inicio's markup (docs/product.md §2 dashboard; issue "Foundation"): the title "Inicio" (the same
 * `<h1>` as the shell skeleton's, src/lib/shell-skeleton.tsx), the greeting by name, the active
 * location (`local`, or "Sin local activo") and the screens the user may open (the menu groups of
 * `user`) — or, when `children` is given (the staff dashboard, ./HomePage.tsx), that in their place
 * (`null`: nothing yet); with `modules` both, `children` first (the customer's summary,
 * ./customer/CustomerHomeSection.tsx). No invented figures. Pure, with no hooks: the app draws it from the session
 * (./HomePage.tsx) and the server draws its templates for the first paint from the stored session
 * (server/preload-hints.ts, src/lib/session-first-paint.ts; docs/decisions.md "Skeleton first").
 */
export function HomeView({
  user,
  local,
  children,
  modules = children === undefined,
}: {
  user: HomeUser | null;
  local: Local | null;
  children?: ReactNode;
  modules?: boolean;
}) {
  const groups = user?.permissions_names ?? [];
  const showModules = modules && groups.length > 0;
  return (
    <div className="home">
      <h1 className="bp6-heading page-title">{AUTH_ROUTES.home.title}</h1>
      <Card className="home-welcome" elevation={1}>
        <div>
          <H2 className="home-greeting">Hola, {user?.name ?? ''}</H2>
          <p className="home-subtitle">
            Bienvenido(a), {user?.name ?? ''} {user?.surname ?? ''}
          </p>
        </div>
        <div className="home-local" data-testid="active-local">
          <Icon icon={HOME_LOCAL_ICON.icon} size={HOME_LOCAL_ICON.size} />
          {local ? (
            <div>
              <div className="home-local-name">Local activo: {local.name}</div>
              {local.address ? <div className="home-local-address">{local.address}</div> : null}
            </div>
          ) : (
            <div className="home-local-name">Sin local activo</div>
          )}
        </div>
      </Card>
      {children}
      {showModules ? (
        <section aria-labelledby="home-modules">
          <H3 id="home-modules" className="home-section-title">
            Sus módulos
          </H3>
          <div className="home-modules">
            {groups.map((group) => (
              <Card key={group.nombre} className="home-module" elevation={1}>
                <H4 className="home-module-title">
                  <Icon icon={group.icono as IconName} />
                  {group.nombre}
                </H4>
                <ul className="home-module-items">
                  {group.items.map((item) => (
                    <li key={`${item.ruta}-${item.nombre}`}>
                      <Link href={item.ruta}>{item.nombre}</Link>
                    </li>
                  ))}
                </ul>
              </Card>
            ))}
          </div>
        </section>
      ) : null}
    </div>
  );
}
