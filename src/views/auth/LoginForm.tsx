import { Button, Callout, InputGroup } from '@blueprintjs/core';
import { PersonIcon } from '@blueprintjs/icons';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { LoginFormMachine } from '../../machines/auth/login-form.machine';
import { selectIsLoggingIn, selectLoginError } from '../../machines/session/session.selectors';
import { preloadAuthenticatedShell } from '../router/screens';
import { useSession } from '../services';
import { FieldGroup } from '../shared/FieldGroup';
import { PasswordInput } from '../shared/PasswordInput';

/**
 * The login form shared by the staff and the customer screens (issue "Foundation"; docs/product.md §3
 * "Login request": user, password, user_type). Field state lives in a `login-form` actor; the
 * call's progress and the server's message come from the session actor. Submitting also starts
 * fetching the authenticated area's code, so Inicio shows as soon as the session is ready.
 */
export function LoginForm({
  actor,
  idPrefix,
  userLabel,
  userAutoComplete,
}: {
  actor: ActorRefFrom<LoginFormMachine>;
  idPrefix: string;
  /** "DNI o correo electrónico" (staff) or "Número de documento" (customers). */
  userLabel: string;
  userAutoComplete: string;
}) {
  const user = useSelector(actor, (s) => s.context.user);
  const password = useSelector(actor, (s) => s.context.password);
  const showPassword = useSelector(actor, (s) => s.context.showPassword);
  const errors = useSelector(actor, (s) => s.context.errors);
  const failure = useSelector(actor, (s) => s.context.failure);
  const serverError = useSession(selectLoginError) ?? failure;
  const loading = useSession(selectIsLoggingIn);
  const userId = `${idPrefix}-user`;
  const passwordId = `${idPrefix}-password`;

  return (
    <form
      className="auth-form"
      noValidate
      // Focusing the form starts fetching what a submit needs (the validation, the session calls).
      onFocus={() => actor.send({ type: 'form.focused' })}
      onSubmit={(e) => {
        e.preventDefault();
        preloadAuthenticatedShell();
        actor.send({ type: 'form.submit' });
      }}
    >
      {serverError ? (
        <Callout intent="danger" icon="error" className="form-callout" role="alert">
          {serverError}
        </Callout>
      ) : null}
      <FieldGroup label={userLabel} labelFor={userId} error={errors.user}>
        <InputGroup
          id={userId}
          size="large"
          leftIcon={<PersonIcon />}
          value={user}
          autoComplete={userAutoComplete}
          intent={errors.user ? 'danger' : 'none'}
          aria-invalid={errors.user ? true : undefined}
          aria-describedby={errors.user ? `${userId}-error` : undefined}
          onValueChange={(value) => actor.send({ type: 'field.change', field: 'user', value })}
        />
      </FieldGroup>
      <FieldGroup label="Contraseña" labelFor={passwordId} error={errors.password}>
        <PasswordInput
          id={passwordId}
          value={password}
          visible={showPassword}
          hasError={Boolean(errors.password)}
          autoComplete="current-password"
          onChange={(value) => actor.send({ type: 'field.change', field: 'password', value })}
          onToggle={() => actor.send({ type: 'password.toggle' })}
        />
      </FieldGroup>
      <Button type="submit" intent="primary" size="large" fill loading={loading} text="Ingresar" />
    </form>
  );
}
