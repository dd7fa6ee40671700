import { use } from 'react';
import { useServices } from '../services';
import { Dashboard } from './Dashboard';

/**
 * Inicio's cards with the app's dashboard machines (loaded with Inicio, src/config/screens.ts
 * `dashboard`; the page suspends on them the first time).
 */
export function HomeDashboard({ permissions, dark }: { permissions: readonly string[]; dark: boolean }) {
  const machines = use(useServices().machines.dashboard());
  return <Dashboard machines={machines} permissions={permissions} dark={dark} />;
}
