import { use } from 'react';
import { Button, Callout } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { Link } from 'wouter';
import type { NewPasswordMachine } from '../../machines/auth/new-password.machine';
import { useServices } from '../services';
import { AuthCard } from '../shared/AuthCard';
import { FieldGroup } from '../shared/FieldGroup';
import { PasswordInput } from '../shared/PasswordInput';
import { LOGIN_PATH_BY_TYPE } from './ForgotPasswordPage';
import { inspectOption } from '../../machines/inspect';

/**
 * Account recovery at /auth/reset_password/{id_encrypted}/{type} (SPEC §2; §3 "New password: id,
 * password"; §7 row 6; issue "Foundation"). The `new-password` actor checks ≥ 8 characters and an
 * equal confirmation, sends the link's token with the new password, and tells success (with a link
 * to the right login) from an invalid or expired link (with a link to request a new one). The page
 * suspends until its machine is loaded.
 */
export function ResetPasswordPage({ token, type }: { token: string; type: string }) {
  const { machines } = useServices();
  return <ResetPassword token={token} type={type} machine={use(machines.newPassword())} />;
}

function ResetPassword({ token, type, machine }: { token: string; type: string; machine: NewPasswordMachine }) {
  const [state, send] = useMachine(machine, { input: { token, type }, ...inspectOption() });
  const { password, confirmation, showPassword, errors, message } = state.context;
  const kind = state.context.type ?? 'collaborator';

  if (state.matches('success')) {
    return (
      <AuthCard title="Recuperar cuenta">
        <Callout intent="success" icon="tick-circle" className="form-callout" role="status">
          {message}
        </Callout>
        <div className="auth-links">
          <Link href={LOGIN_PATH_BY_TYPE[kind]}>Ir al inicio de sesión</Link>
        </div>
      </AuthCard>
    );
  }
  if (state.matches('invalidLink')) {
    return (
      <AuthCard title="Recuperar cuenta">
        <Callout intent="danger" icon="error" className="form-callout" role="alert">
          {message}
        </Callout>
        <div className="auth-links">
          <Link href={`/auth/recuperar/${kind}`}>Solicitar un nuevo enlace</Link>
          <Link href={LOGIN_PATH_BY_TYPE[kind]}>Volver al inicio de sesión</Link>
        </div>
      </AuthCard>
    );
  }

  const submitting = state.matches('submitting');
  return (
    <AuthCard
      title="Recuperar cuenta"
      subtitle="Cree una nueva contraseña de al menos 8 caracteres."
      footer={<Link href={LOGIN_PATH_BY_TYPE[kind]}>Volver al inicio de sesión</Link>}
    >
      <form
        className="auth-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit' });
        }}
      >
        {state.matches('failed') && message ? (
          <Callout intent="danger" icon="error" className="form-callout" role="alert">
            {message}
          </Callout>
        ) : null}
        <FieldGroup label="Nueva contraseña" labelFor="new-password" error={errors.password}>
          <PasswordInput
            id="new-password"
            value={password}
            visible={showPassword}
            hasError={Boolean(errors.password)}
            autoComplete="new-password"
            disabled={submitting}
            onChange={(value) => send({ type: 'field.change', field: 'password', value })}
            onToggle={() => send({ type: 'password.toggle' })}
          />
        </FieldGroup>
        <FieldGroup label="Confirme la nueva contraseña" labelFor="new-password-confirmation" error={errors.confirmation}>
          <PasswordInput
            id="new-password-confirmation"
            value={confirmation}
            visible={showPassword}
            hasError={Boolean(errors.confirmation)}
            autoComplete="new-password"
            disabled={submitting}
            onChange={(value) => send({ type: 'field.change', field: 'confirmation', value })}
            onToggle={() => send({ type: 'password.toggle' })}
          />
        </FieldGroup>
        <Button type="submit" intent="primary" size="large" fill loading={submitting} text="Guardar contraseña" />
      </form>
    </AuthCard>
  );
}
