import { lazy, use } from 'react';
import { Tab, Tabs } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Link, Redirect } from 'wouter';
import type { CustomerAccessMachine, CustomerTab } from '../../machines/auth/customer-access.machine';
import { selectShouldLeaveLogin } from '../../machines/session/session.selectors';
import { useServices, useSession } from '../services';
import { AuthCard } from '../shared/AuthCard';
import { LoadBoundary } from '../shared/LoadBoundary';
import { LoginForm } from './LoginForm';
import { inspectOption } from '../../machines/inspect';

/** The registration form brings the date input (@blueprintjs/datetime): loaded with its tab. */
const RegistrationForm = lazy(() => import('./RegistrationForm').then((m) => ({ default: m.RegistrationForm })));

/**
 * Customer access at /auth/loginclientes (docs/product.md §2 "customer login"; issue "Foundation"): tabs
 * "Ingresar" (login with the document number, user_type CUSTOMER) and "Registrarme" (docs/product.md §3
 * registration). The tab and both forms live in the `customer-access` actor and its children.
 * With a token stored the user goes to / (docs/product.md §2 route guard). The machine is loaded on demand
 * (`machines.customerAccess()`): the page suspends until it is there.
 */
export function CustomerAccessPage() {
  const { machines } = useServices();
  return <CustomerAccess machine={use(machines.customerAccess())} />;
}

function CustomerAccess({ machine }: { machine: CustomerAccessMachine }) {
  const { today } = useServices();
  const leave = useSession(selectShouldLeaveLogin);
  const actor = useActorRef(machine, { input: { today: today() }, ...inspectOption() });
  const tab: CustomerTab = useSelector(actor, (s) => (s.matches('register') ? 'register' : 'login'));
  const loginRef = useSelector(actor, (s) => s.children.loginForm);
  const registrationRef = useSelector(actor, (s) => s.children.registration);
  if (leave) return <Redirect to="/" replace />;

  return (
    <AuthCard
      title="Acceso de clientes"
      subtitle="Consulte sus compras, cuotas y pagos."
      wide={tab === 'register'}
      footer={
        <>
          <Link href="/auth/recuperar/customer">¿Olvidó su contraseña?</Link>
          <Link href="/auth/login">¿Es colaborador? Ingrese aquí</Link>
          <Link href="/landing">Conozca nuestros lotes</Link>
        </>
      }
    >
      <Tabs
        id="customer-access"
        selectedTabId={tab}
        onChange={(next) => actor.send({ type: 'tab.select', tab: next as CustomerTab })}
        renderActiveTabPanelOnly
        size="large"
        fill
        className="customer-tabs"
      >
        <Tab
          id="login"
          title="Ingresar"
          panel={
            loginRef ? (
              <LoginForm actor={loginRef} idPrefix="customer-login" userLabel="Número de documento" userAutoComplete="username" />
            ) : undefined
          }
        />
        <Tab
          id="register"
          title="Registrarme"
          panel={
            registrationRef ? (
              <LoadBoundary small>
                <RegistrationForm actor={registrationRef} />
              </LoadBoundary>
            ) : undefined
          }
        />
      </Tabs>
    </AuthCard>
  );
}
