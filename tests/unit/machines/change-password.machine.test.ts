/** change-password machine (docs/product.md §2, §5, §7 row 15, §8: exact warning titles and texts, 3000 ms). */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import {
  INCOMPLETE_TOAST,
  MISMATCH_TOAST,
  changePasswordMachine,
  passwordStrength,
  type PasswordFields,
} from '../../../src/machines/change-password/change-password.machine';

function start(call: (input: { actual_password: string; new_password: string }) => Promise<{ message: string }>) {
  const notify = vi.fn();
  const changePassword = vi.fn(call);
  const actor = createActor(
    changePasswordMachine.provide({
      actions: { notify: (_, toast) => notify(toast) },
      actors: { changePassword: fromPromise(({ input }) => changePassword(input)) },
    }),
  );
  actor.start();
  actor.send({ type: 'password.open' });
  const fill = (fields: Partial<PasswordFields>) => {
    for (const [field, value] of Object.entries(fields))
      actor.send({ type: 'password.changed', field: field as keyof PasswordFields, value });
  };
  return { actor, notify, changePassword, fill };
}

describe('passwordStrength', () => {
  it('grades Débil / Medio / Fuerte and nothing for an empty value', () => {
    expect(passwordStrength('')).toBeNull();
    expect(passwordStrength('abc')).toBe('Débil');
    expect(passwordStrength('abcdefgh')).toBe('Débil');
    expect(passwordStrength('abc123')).toBe('Medio');
    expect(passwordStrength('Abcdef12')).toBe('Fuerte');
    expect(passwordStrength('Ab1')).toBe('Débil');
  });
});

describe('change-password machine', () => {
  it('warns DATOS INCOMPLETOS when a field is empty and calls nothing', () => {
    const { actor, notify, changePassword, fill } = start(async () => ({ message: 'ok' }));
    fill({ actual_password: 'Actual#1', new_password: 'Nueva#2026' });
    actor.send({ type: 'password.submit' });
    expect(notify).toHaveBeenCalledWith(INCOMPLETE_TOAST);
    expect(INCOMPLETE_TOAST).toEqual({
      severity: 'warn',
      summary: 'DATOS INCOMPLETOS',
      detail: 'Rellene todos los campos para continuar',
      life: 3000,
    });
    expect(changePassword).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toEqual({ open: 'editing' });
  });

  it('warns CONTRASEÑAS DISTINTAS when the confirmation differs', () => {
    const { actor, notify, changePassword, fill } = start(async () => ({ message: 'ok' }));
    fill({ actual_password: 'Actual#1', new_password: 'Nueva#2026', confirmar_password: 'Nueva#2025' });
    actor.send({ type: 'password.submit' });
    expect(notify).toHaveBeenCalledWith(MISMATCH_TOAST);
    expect(MISMATCH_TOAST.detail).toBe('Los campos de la nueva contraseña debe de ser iguales');
    expect(changePassword).not.toHaveBeenCalled();
  });

  it('sends only the current and new password, closes and clears on success', async () => {
    const { actor, notify, changePassword, fill } = start(async () => ({ message: 'Contraseña actualizada correctamente' }));
    fill({ actual_password: 'Actual#1', new_password: 'Nueva#2026', confirmar_password: 'Nueva#2026' });
    actor.send({ type: 'password.submit' });
    expect(actor.getSnapshot().value).toEqual({ open: 'submitting' });
    actor.send({ type: 'password.close' });
    expect(actor.getSnapshot().value).toEqual({ open: 'submitting' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(changePassword).toHaveBeenCalledWith({ actual_password: 'Actual#1', new_password: 'Nueva#2026' });
    expect(notify).toHaveBeenCalledWith({
      severity: 'success',
      summary: 'Contraseña actualizada',
      detail: 'Contraseña actualizada correctamente',
      life: 3000,
    });
    expect(actor.getSnapshot().context.fields).toEqual({ actual_password: '', new_password: '', confirmar_password: '' });
  });

  it('shows the server message under DESCRIPCIÓN and keeps what was typed', async () => {
    const { actor, notify, fill } = start(async () => {
      throw new ApiError(422, 'La contraseña actual es incorrecta');
    });
    fill({ actual_password: 'mala', new_password: 'Nueva#2026', confirmar_password: 'Nueva#2026' });
    actor.send({ type: 'password.submit' });
    await waitFor(actor, (s) => s.matches({ open: 'editing' }));
    expect(notify).toHaveBeenCalledWith({
      severity: 'error',
      summary: 'DESCRIPCIÓN',
      detail: 'La contraseña actual es incorrecta',
      life: 3000,
    });
    expect(actor.getSnapshot().context.fields.actual_password).toBe('mala');
  });

  it.each([401, 402, 404])("a %i is the session's: no toast, the dialog closes and forgets the typed passwords", async (status) => {
    const { actor, notify, fill } = start(async () => {
      throw new ApiError(status, 'Sesión no válida o expirada');
    });
    fill({ actual_password: 'Actual#2026', new_password: 'Nueva#2026', confirmar_password: 'Nueva#2026' });
    actor.send({ type: 'password.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(notify).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.fields).toEqual({ actual_password: '', new_password: '', confirmar_password: '' });
  });
});
