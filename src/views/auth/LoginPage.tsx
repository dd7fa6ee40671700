import { useActorRef } from '@xstate/react';
import { Link, Redirect } from 'wouter';
import { selectShouldLeaveLogin } from '../../machines/session/session.selectors';
import { useServices, useSession } from '../services';
import { AuthCard } from '../shared/AuthCard';
import { LoginForm } from './LoginForm';
import { inspectOption } from '../../machines/inspect';

/**
 * Staff login at /auth/login (docs/product.md §2 "Iniciar sesión"; §7 row 2 with user_type COLLABORATOR).
 * With a token stored the user goes to / (docs/product.md §2 route guard).
 */
export function LoginPage() {
  const { machines } = useServices();
  const leave = useSession(selectShouldLeaveLogin);
  const actor = useActorRef(machines.loginForm, { input: { userType: 'COLLABORATOR' }, ...inspectOption() });
  if (leave) return <Redirect to="/" replace />;
  return (
    <AuthCard
      title="Iniciar sesión"
      subtitle="Ingrese con su cuenta de colaborador."
      footer={
        <>
          <Link href="/auth/recuperar/collaborator">¿Olvidó su contraseña?</Link>
          <Link href="/auth/loginclientes">¿Es cliente? Ingrese aquí</Link>
          <Link href="/landing">Conozca nuestros lotes</Link>
        </>
      }
    >
      <LoginForm actor={actor} idPrefix="login" userLabel="DNI o correo electrónico" userAutoComplete="username" />
    </AuthCard>
  );
}
