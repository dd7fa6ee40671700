import { use } from 'react';
import { useServices } from '../../services';
import { CustomerHome } from './CustomerHome';
import '../../../styles/inicio-customer.css';

/**
 * {@link CustomerHome} once the customer's purchase machines are loaded. Loaded lazily by
 * ../HomePage.tsx, whose Suspense shows one spinner while this chunk and the machines arrive (the
 * greeting above stays).
 */
export default function CustomerHomeSection() {
  const services = useServices();
  const machines = use(services.machines.purchases());
  return <CustomerHome machines={machines} today={services.today()} />;
}
