import { Suspense, use } from 'react';
import { Spinner } from '@blueprintjs/core';
import { useServices } from '../../services';
import { CustomerHome } from './CustomerHome';
import '../../../styles/inicio-customer.css';

/** {@link CustomerHome} once the customer's purchase machines are loaded (a spinner meanwhile, the greeting above stays). */
export default function CustomerHomeSection() {
  return (
    <Suspense fallback={<Spinner size={32} aria-label="Cargando" />}>
      <LoadedCustomerHome />
    </Suspense>
  );
}

function LoadedCustomerHome() {
  const services = useServices();
  const machines = use(services.machines.purchases());
  return <CustomerHome machines={machines} today={services.today()} />;
}
