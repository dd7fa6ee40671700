import { loginRequestSchema, type LoginRequest } from '../../schemas/session';
import type { LoginField, LoginFormContext } from './login-form.machine';

/**
 * The login form's client validation with the shared `loginRequestSchema` (docs/product.md §3
 * "Login request"). Its own module, imported by the login-form machine at the first submit (or
 * earlier, see `preloadLoginValidation`): zod stays out of the login page's entry chunk
 * (docs/decisions.md "Compression and the login budget").
 */

/** Field messages per user type: customers log in with their document number. */
const USER_REQUIRED: Record<LoginFormContext['userType'], string> = {
  COLLABORATOR: 'Ingrese su DNI o correo electrónico',
  CUSTOMER: 'Ingrese su número de documento',
};

/** The outcome of {@link validateLogin}. */
export type LoginValidation = { ok: true; request: LoginRequest } | { ok: false; errors: Partial<Record<LoginField, string>> };

/**
 * Validates the form with the shared `loginRequestSchema`.
 * @returns the request when valid (user trimmed), else the Spanish message per field.
 */
export function validateLogin(ctx: Pick<LoginFormContext, 'user' | 'password' | 'userType'>): LoginValidation {
  const parsed = loginRequestSchema.safeParse({ user: ctx.user, password: ctx.password, user_type: ctx.userType });
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: Partial<Record<LoginField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === 'user') errors.user ??= USER_REQUIRED[ctx.userType];
    else if (field === 'password') errors.password ??= issue.message;
  }
  return { ok: false, errors };
}
