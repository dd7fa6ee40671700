import { use } from 'react';
import { Button, InputGroup } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { Link } from 'wouter';
import type { ResetRequestMachine } from '../../machines/auth/reset-request.machine';
import type { ResetType } from '../../schemas/session';
import { useServices } from '../services';
import { AuthCard } from '../shared/AuthCard';
import { FieldGroup } from '../shared/FieldGroup';
import { AuthForm, FormCallout } from './AuthForm';
import { inspectOption } from '../../machines/inspect';

/** Login route of each account kind. */
export const LOGIN_PATH_BY_TYPE: Record<ResetType, string> = {
  collaborator: '/auth/login',
  customer: '/auth/loginclientes',
};

/**
 * Request a password-reset link at /auth/recuperar/{type} (issue "Foundation"; docs/product.md §3 "Password
 * reset request: dni", §7 rows 4 (collaborator) and 5 (customer)). The `reset-request` actor holds
 * the field, the call and the server's message; the page suspends until its machine is loaded.
 */
export function ForgotPasswordPage({ type }: { type: ResetType }) {
  const { machines } = useServices();
  return <ForgotPassword type={type} machine={use(machines.resetRequest())} />;
}

function ForgotPassword({ type, machine }: { type: ResetType; machine: ResetRequestMachine }) {
  const [state, send] = useMachine(machine, { input: { type }, ...inspectOption() });
  const { dni, fieldError, message } = state.context;
  const label = type === 'collaborator' ? 'DNI' : 'Número de documento';
  const sent = state.matches('sent');
  const submitting = state.matches('submitting');

  return (
    <AuthCard
      title="Recuperar contraseña"
      subtitle={
        sent
          ? undefined
          : `Ingrese su ${type === 'collaborator' ? 'DNI' : 'número de documento'} y le enviaremos un enlace para crear una nueva contraseña.`
      }
      footer={<Link href={LOGIN_PATH_BY_TYPE[type]}>Volver al inicio de sesión</Link>}
    >
      {sent ? (
        <FormCallout intent="success" icon="envelope">
          {message}
        </FormCallout>
      ) : (
        <AuthForm onSubmit={() => send({ type: 'form.submit' })} error={state.matches('failed') ? message : null}>
          <FieldGroup label={label} labelFor="reset-dni" error={fieldError ?? undefined}>
            <InputGroup
              id="reset-dni"
              size="large"
              leftIcon="id-number"
              value={dni}
              autoComplete="username"
              intent={fieldError ? 'danger' : 'none'}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? 'reset-dni-error' : undefined}
              onValueChange={(value) => send({ type: 'field.change', value })}
            />
          </FieldGroup>
          <Button type="submit" intent="primary" size="large" fill loading={submitting} text="Enviar enlace" />
        </AuthForm>
      )}
    </AuthCard>
  );
}
