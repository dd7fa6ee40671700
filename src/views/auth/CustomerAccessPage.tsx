import { Tab, Tabs } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Link, Redirect } from 'wouter';
import type { CustomerTab } from '../../machines/auth/customer-access.machine';
import { selectShouldLeaveLogin } from '../../machines/session/session.selectors';
import { useServices, useSession } from '../services';
import { AuthCard } from '../shared/AuthCard';
import { LoginForm } from './LoginForm';
import { RegistrationForm } from './RegistrationForm';

/**
 * Customer access at /auth/loginclientes (SPEC §2 "customer login"; issue "Foundation"): tabs
 * "Ingresar" (login with the document number, user_type CUSTOMER) and "Registrarme" (SPEC §3
 * registration). The tab and both forms live in the `customer-access` actor and its children.
 * With a token stored the user goes to / (SPEC §2 route guard).
 */
export function CustomerAccessPage() {
  const { machines, today } = useServices();
  const leave = useSession(selectShouldLeaveLogin);
  const actor = useActorRef(machines.customerAccess, { input: { today: today() } });
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
              <LoginForm
                actor={loginRef}
                idPrefix="customer-login"
                userLabel="Número de documento"
                userAutoComplete="username"
              />
            ) : undefined
          }
        />
        <Tab id="register" title="Registrarme" panel={registrationRef ? <RegistrationForm actor={registrationRef} /> : undefined} />
      </Tabs>
    </AuthCard>
  );
}
