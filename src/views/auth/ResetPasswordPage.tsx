import { use } from 'react';
import { Button, Spinner } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { Link } from 'wouter';
import type { NewPasswordField, NewPasswordMachine } from '../../machines/auth/new-password.machine';
import { useServices } from '../services';
import { AuthCard } from '../shared/AuthCard';
import { FieldGroup } from '../shared/FieldGroup';
import { PasswordInput } from '../shared/PasswordInput';
import { AuthForm, FormCallout } from './AuthForm';
import { LOGIN_PATH_BY_TYPE } from './ForgotPasswordPage';
import { inspectOption } from '../../machines/inspect';

/** The two masked fields of the form, in order: machine field, input id, Spanish label. */
const NEW_PASSWORD_FIELDS: readonly { field: NewPasswordField; id: string; label: string }[] = [
  { field: 'password', id: 'new-password', label: 'Nueva contraseña' },
  { field: 'confirmation', id: 'new-password-confirmation', label: 'Confirme la nueva contraseña' },
];

/**
 * Account recovery at /auth/reset_password/{id_encrypted}/{type} (docs/product.md §2; §3 "New password: id,
 * password"; §7 row 6; issue "Foundation"). The link is checked on arrival (a bad or used one shows
 * the invalid-link message at once). The `new-password` actor checks ≥ 8 characters and an
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
        <FormCallout intent="success">{message}</FormCallout>
        <div className="auth-links">
          <Link href={LOGIN_PATH_BY_TYPE[kind]}>Ir al inicio de sesión</Link>
        </div>
      </AuthCard>
    );
  }
  if (state.matches('invalidLink')) {
    return (
      <AuthCard title="Recuperar cuenta">
        <FormCallout intent="danger">{message}</FormCallout>
        <div className="auth-links">
          <Link href={`/auth/recuperar/${kind}`}>Solicitar un nuevo enlace</Link>
          <Link href={LOGIN_PATH_BY_TYPE[kind]}>Volver al inicio de sesión</Link>
        </div>
      </AuthCard>
    );
  }

  if (state.matches('verifying')) {
    // The link is checked on arrival: a bad or used one is said before a password is typed.
    return (
      <AuthCard title="Recuperar cuenta" subtitle="Comprobando el enlace de recuperación…">
        <Spinner size={32} aria-label="Comprobando el enlace de recuperación" />
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
      <AuthForm onSubmit={() => send({ type: 'form.submit' })} error={state.matches('failed') ? message : null}>
        {NEW_PASSWORD_FIELDS.map(({ field, id, label }) => (
          <FieldGroup key={field} label={label} labelFor={id} error={errors[field]}>
            <PasswordInput
              id={id}
              value={field === 'password' ? password : confirmation}
              visible={showPassword}
              hasError={Boolean(errors[field])}
              autoComplete="new-password"
              disabled={submitting}
              onChange={(value) => send({ type: 'field.change', field, value })}
              onToggle={() => send({ type: 'password.toggle' })}
            />
          </FieldGroup>
        ))}
        <Button type="submit" intent="primary" size="large" fill loading={submitting} text="Guardar contraseña" />
      </AuthForm>
    </AuthCard>
  );
}
