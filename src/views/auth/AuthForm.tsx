import type { ReactNode } from 'react';
import { Callout, type IconName } from '@blueprintjs/core';

/**
 * Pieces shared by the password-recovery pages (ForgotPasswordPage, ResetPasswordPage): the
 * message callout and the form that submits through its machine.
 */

/** Icon of each callout intent when none is given. */
const DEFAULT_CALLOUT_ICON: Record<'success' | 'danger', IconName> = { success: 'tick-circle', danger: 'error' };

/**
 * A callout with the server's message (docs/product.md §8: the message field is shown as the server wrote it):
 * `success` is green with role="status", `danger` red with role="alert" (announced at once).
 * @param icon Blueprint icon; defaults to `tick-circle` (success) or `error` (danger).
 */
export function FormCallout({ intent, icon, children }: { intent: 'success' | 'danger'; icon?: IconName; children: ReactNode }) {
  return (
    <Callout
      intent={intent}
      icon={icon ?? DEFAULT_CALLOUT_ICON[intent]}
      className="form-callout"
      role={intent === 'success' ? 'status' : 'alert'}
    >
      {children}
    </Callout>
  );
}

/**
 * An auth page's form: no browser validation (the machine validates), submit sends the machine's
 * `form.submit` through `onSubmit` without reloading, and a failure message (`error`, e.g. the
 * server's 422 message) shows above the fields in a danger callout.
 * @param error the message to show, or null/undefined for none.
 */
export function AuthForm({ onSubmit, error, children }: { onSubmit: () => void; error?: string | null; children: ReactNode }) {
  return (
    <form
      className="auth-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {error ? <FormCallout intent="danger">{error}</FormCallout> : null}
      {children}
    </form>
  );
}
