import { AnchorButton, NonIdealState, type IconName } from '@blueprintjs/core';
import { Link } from 'wouter';
import type { RouteDef } from '../../config/paths';

/** Icon per menu group (same icons as the menu catalogue of schemas/menu-catalogue.ts). */
const MODULE_ICONS: Record<string, IconName> = {
  Configuración: 'cog',
  Administración: 'briefcase',
  Finanzas: 'bank-account',
  CRM: 'people',
  Proyectos: 'map',
  Comercial: 'shop',
  Ingeniería: 'build',
  Web: 'globe-network',
  Reportes: 'chart',
  'Reportes Económicos': 'dollar',
  'Historial de Cambios': 'history',
};

/**
 * Placeholder of an authenticated screen whose issue has not landed (issue "Foundation"): a
 * NonIdealState naming its module and screen. No fake data.
 */
export function ModulePlaceholder({ route }: { route: RouteDef }) {
  const module = route.module ?? 'Inicio';
  return (
    <div className="page-state">
      <NonIdealState
        icon={MODULE_ICONS[module] ?? 'application'}
        title={route.title}
        description={`El módulo ${module} estará disponible próximamente.`}
      />
    </div>
  );
}

/**
 * Shown instead of a screen when the user lacks its permissions (docs/product.md §6: a user sees only what
 * the `accesos` list grants).
 */
export function NoPermission({ route }: { route: RouteDef }) {
  return (
    <div className="page-state">
      <NonIdealState
        icon="lock"
        title="Sin permiso"
        description={`No tiene permiso para ver ${route.title}. Solicite acceso al administrador.`}
        action={
          <Link href="/" asChild>
            <AnchorButton intent="primary" text="Volver al inicio" />
          </Link>
        }
      />
    </div>
  );
}
