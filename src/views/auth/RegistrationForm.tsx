import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { RegistrationField, RegistrationMachine } from '../../machines/auth/registration.machine';
import { DOCUMENT_TYPES } from '../../schemas/documents';
import { FieldGroup } from '../shared/FieldGroup';
import { IsoDateInput } from '../shared/IsoDateInput';
import { PasswordInput } from '../shared/PasswordInput';

/**
 * Customer self-registration form (issue "Foundation"; docs/product.md §3 "Customer registration", §7 row 1).
 * Values, client errors (the server's zod schema) and the server's 422 field errors live in the
 * `registration` actor; each error is shown under its field. Two columns from 640 px, one below.
 * The birthday is a Spanish date input (dd/mm/aaaa, calendar from 1900 to today) whose value stays
 * the ISO date of the wire format. This module is loaded with the "Registrarme" tab.
 */

/** First day the birthday calendar offers. */
const BIRTHDAY_MIN = '1900-01-01';

export function RegistrationForm({ actor }: { actor: ActorRefFrom<RegistrationMachine> }) {
  const values = useSelector(actor, (s) => s.context.values);
  const errors = useSelector(actor, (s) => s.context.errors);
  const formError = useSelector(actor, (s) => s.context.formError);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const showPassword = useSelector(actor, (s) => s.context.showPassword);
  const today = useSelector(actor, (s) => s.context.today);
  const change = (field: RegistrationField) => (value: string) => actor.send({ type: 'field.change', field, value });
  const id = (field: RegistrationField) => `register-${field}`;
  const inputProps = (field: RegistrationField) => ({
    id: id(field),
    size: 'large' as const,
    value: values[field],
    intent: errors[field] ? ('danger' as const) : ('none' as const),
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id(field)}-error` : undefined,
    onValueChange: change(field),
    disabled: submitting,
  });

  return (
    <form
      className="auth-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'form.submit' });
      }}
    >
      {formError ? (
        <Callout intent="danger" icon="error" className="form-callout" role="alert">
          {formError}
        </Callout>
      ) : null}
      <div className="form-grid">
        <FormGroup
          label="Tipo de documento"
          labelFor={id('id_document_type')}
          intent={errors.id_document_type ? 'danger' : 'none'}
          helperText={errors.id_document_type ? <span id={`${id('id_document_type')}-error`}>{errors.id_document_type}</span> : undefined}
        >
          <HTMLSelect
            id={id('id_document_type')}
            large
            fill
            value={values.id_document_type}
            disabled={submitting}
            onChange={(e) => change('id_document_type')(e.currentTarget.value)}
            options={DOCUMENT_TYPES.map((d) => ({ value: d.code, label: d.label }))}
          />
        </FormGroup>
        <FieldGroup label="Número de documento" labelFor={id('document_number')} error={errors.document_number}>
          <InputGroup
            {...inputProps('document_number')}
            autoComplete="off"
            inputMode={values.id_document_type === '1' || values.id_document_type === '6' ? 'numeric' : 'text'}
          />
        </FieldGroup>
        <FieldGroup label="Nombres" labelFor={id('name')} error={errors.name}>
          <InputGroup {...inputProps('name')} autoComplete="given-name" />
        </FieldGroup>
        <FieldGroup label="Apellidos" labelFor={id('surname')} error={errors.surname}>
          <InputGroup {...inputProps('surname')} autoComplete="family-name" />
        </FieldGroup>
        <FieldGroup label="Fecha de nacimiento" labelFor={id('birthday_date')} error={errors.birthday_date} hint="dd/mm/aaaa">
          <IsoDateInput
            id={id('birthday_date')}
            value={values.birthday_date}
            onChange={change('birthday_date')}
            minDate={BIRTHDAY_MIN}
            maxDate={today}
            disabled={submitting}
            hasError={Boolean(errors.birthday_date)}
            describedBy={errors.birthday_date ? `${id('birthday_date')}-error` : undefined}
          />
        </FieldGroup>
        <FieldGroup label="Correo electrónico" labelFor={id('email')} error={errors.email}>
          <InputGroup {...inputProps('email')} type="email" inputMode="email" autoComplete="email" />
        </FieldGroup>
        <FieldGroup label="Celular" labelFor={id('phone')} error={errors.phone}>
          <InputGroup {...inputProps('phone')} type="tel" inputMode="tel" autoComplete="tel-national" placeholder="9XXXXXXXX" />
        </FieldGroup>
        <FieldGroup label="Contraseña" labelFor={id('password')} error={errors.password} hint="Mínimo 8 caracteres.">
          <PasswordInput
            id={id('password')}
            value={values.password}
            visible={showPassword}
            hasError={Boolean(errors.password)}
            autoComplete="new-password"
            disabled={submitting}
            onChange={change('password')}
            onToggle={() => actor.send({ type: 'password.toggle' })}
          />
        </FieldGroup>
      </div>
      <Button type="submit" intent="primary" size="large" fill loading={submitting} text="Crear cuenta" />
    </form>
  );
}
