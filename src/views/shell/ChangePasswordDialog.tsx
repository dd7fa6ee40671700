import type { FormEvent } from 'react';
import { Button, Classes, DialogBody, DialogFooter, FormGroup, Icon, InputGroup, ProgressBar, type Intent } from '@blueprintjs/core';
import { Dialog } from '../shared/BlueprintEs';
import { passwordStrength, type PasswordField, type PasswordStrength } from '../../machines/change-password/change-password.machine';
import { t, type LabelKey } from '../../i18n/labels';
import { useChangePassword, useChangePasswordEvents } from './shell-context';

/** Title of the dialog (docs/product.md §2). */
export const CHANGE_PASSWORD_TITLE = 'CAMBIAR CONTRASEÑA';

const FIELDS: readonly { field: PasswordField; id: string; label: string; autoComplete: 'current-password' | 'new-password' }[] = [
  { field: 'actual_password', id: 'change-password-actual', label: 'Contraseña Actual', autoComplete: 'current-password' },
  { field: 'new_password', id: 'change-password-new', label: 'Nueva Contraseña', autoComplete: 'new-password' },
  { field: 'confirmar_password', id: 'change-password-confirm', label: 'Confirme la nueva contraseña', autoComplete: 'new-password' },
];

const STRENGTH: Record<PasswordStrength, { label: LabelKey; value: number; intent: Intent }> = {
  Débil: { label: 'weak', value: 1 / 3, intent: 'danger' },
  Medio: { label: 'medium', value: 2 / 3, intent: 'warning' },
  Fuerte: { label: 'strong', value: 1, intent: 'success' },
};

/**
 * The change-password dialog (docs/product.md §2 "Change-password dialog", §5, §8; issue "Shell"): a modal
 * titled "CAMBIAR CONTRASEÑA" with three masked fields ("Contraseña Actual", "Nueva Contraseña" with
 * its strength — "Débil" / "Medio" / "Fuerte", "Ingrese una contraseña" when empty — and "Confirme
 * la nueva contraseña") and the buttons "Cancelar" and "Cambiar" (loading while row 15 runs). The
 * change-password machine holds the fields, validates and toasts; the dialog cannot close while
 * the change is in flight.
 */
export function ChangePasswordDialog() {
  const open = useChangePassword((s) => s.matches('open'));
  const submitting = useChangePassword((s) => s.matches({ open: 'submitting' }));
  const fields = useChangePassword((s) => s.context.fields);
  const { close, change, submit } = useChangePasswordEvents();
  const strength = passwordStrength(fields.new_password);
  const meter = strength ? STRENGTH[strength] : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <Dialog
      isOpen={open}
      onClose={close}
      aria-labelledby="change-password-title"
      className="change-password-dialog"
      canEscapeKeyClose={!submitting}
      canOutsideClickClose={!submitting}
    >
      <div className={Classes.DIALOG_HEADER}>
        <Icon icon="key" aria-hidden="true" />
        <h2 id="change-password-title" className={Classes.HEADING}>
          {CHANGE_PASSWORD_TITLE}
        </h2>
        <Button
          variant="minimal"
          icon="cross"
          aria-label="Cerrar"
          className={Classes.DIALOG_CLOSE_BUTTON}
          disabled={submitting}
          onClick={close}
        />
      </div>
      <form onSubmit={onSubmit} noValidate>
        <DialogBody>
          {FIELDS.map(({ field, id, label, autoComplete }) => (
            <FormGroup key={field} label={label} labelFor={id} className="change-password-field">
              <InputGroup
                id={id}
                type="password"
                value={fields[field]}
                onValueChange={(value) => change(field, value)}
                autoComplete={autoComplete}
                disabled={submitting}
                aria-describedby={field === 'new_password' ? 'change-password-strength' : undefined}
              />
              {field === 'new_password' ? (
                <div className="password-strength" id="change-password-strength" data-strength={strength ?? 'none'}>
                  <ProgressBar
                    animate={false}
                    stripes={false}
                    value={meter?.value ?? 0}
                    intent={meter?.intent ?? 'none'}
                    aria-hidden="true"
                  />
                  <span className="password-strength-label">{meter ? t(meter.label) : t('passwordPrompt')}</span>
                </div>
              ) : null}
            </FormGroup>
          ))}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('cancel')} onClick={close} disabled={submitting} />
              <Button type="submit" intent="primary" text="Cambiar" loading={submitting} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
