import { use } from 'react';
import { useServices } from '../services';
import { Dashboard } from './Dashboard';

/**
 * Inicio's cards with the app's dashboard machines (src/config/screens.ts `dashboard`, loaded on
 * demand: the page suspends on them the first time). This module is imported lazily by
 * ./HomePage.tsx, so the cards, the machines and the schemas stay out of Inicio's first paint.
 */
export default function HomeDashboard({ permissions, dark }: { permissions: readonly string[]; dark: boolean }) {
  const machines = use(useServices().machines.dashboard());
  return <Dashboard machines={machines} permissions={permissions} dark={dark} />;
}
