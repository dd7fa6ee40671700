import * as z from 'zod/mini';
import { documentNumberError } from './documents';
import { CALENDAR_DATE_BOUNDS, CALENDAR_DATE_MESSAGES, isoDateSchema } from './common';
import { RESET_TYPES, USER_TYPES, type UserType } from './user-types';

export { sessionTypeOf, type ResetType, type UserType } from './user-types';

/**
 * Session wire shapes: docs/product.md §3 (entities), §7 rows 1–11 and 15. Shared by the web app's api
 * modules, the server's routes and the Pact tests.
 */

/** user_type sent at login (docs/product.md §6: stored type CUSTOMER marks customers; staff are COLLABORATOR). */
export const userTypeSchema = z.enum(USER_TYPES);

/** The `{type}` segment of the reset link and of call 6 (`password_reset_{type}`). */
export const resetTypeSchema = z.enum(RESET_TYPES);

/** Theme settings (docs/product.md §3 layoutConfig); saved as a JSON string by call 8. */
export const styleSettingsSchema = z.strictObject({
  primary: z.string().check(z.minLength(1), z.maxLength(20)),
  surface: z.nullable(z.string().check(z.maxLength(20))),
  preset: z.enum(['Aura', 'Lara', 'Nora']),
  menuMode: z.enum(['static', 'overlay']),
  darkTheme: z.boolean(),
});
export type StyleSettings = z.infer<typeof styleSettingsSchema>;
/**
 * Theme settings as the app reads them (call 2's `system_styles`, storage): the same fields, unknown
 * keys ignored (tolerant reader, docs/contracts.md); what we send (call 8) stays strict.
 */
export const styleSettingsReadSchema = z.object(styleSettingsSchema.shape);

/** Default theme (docs/product.md §9): emerald, Aura, static, light. */
export const DEFAULT_STYLES: StyleSettings = {
  primary: 'emerald',
  surface: null,
  preset: 'Aura',
  menuMode: 'static',
  darkTheme: false,
};

/** One menu entry of permissions_names (docs/product.md §3): display name, route path, Blueprint icon name. */
export const menuItemSchema = z.object({ nombre: z.string(), ruta: z.string(), icono: z.string() });
/**
 * One menu group of permissions_names: `items` per docs/product.md §3, plus the group's own name and icon (the
 * icon is ours, not the spec's: a backend may leave it out, and the group then shows none).
 */
export const menuGroupSchema = z.object({
  nombre: z.string(),
  icono: z.optional(z.string()),
  items: z.array(menuItemSchema),
});
export type MenuItem = z.infer<typeof menuItemSchema>;
export type MenuGroup = z.infer<typeof menuGroupSchema>;

/** The signed-in user as call 2 returns it and as `user_details` stores it (docs/product.md §3). */
export const sessionUserSchema = z.object({
  id: z.int().check(z.positive()),
  name: z.string(),
  surname: z.string(),
  dni: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  status: z.enum(['ACTIVO', 'INACTIVO']),
  roles: z.array(z.string()),
  permissions_names: z.array(menuGroupSchema),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** Call 2 request body: `user` is a DNI or email for staff, the document number for customers. */
export const loginRequestSchema = z.strictObject({
  user: z.string().check(z.trim(), z.minLength(1, 'Ingrese su usuario'), z.maxLength(120)),
  password: z.string().check(z.minLength(1, 'Ingrese una contraseña'), z.maxLength(200)),
  user_type: userTypeSchema,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Call 2 response: data.token (opaque, 64 hex chars), data.type, data.system_styles, data.user. */
export const loginResponseSchema = z.object({
  data: z.object({
    token: z.string().check(z.minLength(32)),
    // docs/product.md §6: type CUSTOMER marks customers and any other type means staff ("ADMIN", …); the app
    // reads it through {@link sessionTypeOf}. Our server sends COLLABORATOR or CUSTOMER.
    type: z.string().check(z.minLength(1)),
    system_styles: z.nullable(styleSettingsReadSchema),
    user: sessionUserSchema,
  }),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;
/** Call 2's data as the app uses it: `type` already read as {@link UserType}. */
export type LoginData = Omit<LoginResponse['data'], 'type'> & { type: UserType };

/** Realtime connection info (docs/product.md §3 echo_info: broadcaster, key, cluster, encrypted) for laravel-echo's pusher broadcaster. */
export const echoInfoSchema = z.object({
  broadcaster: z.literal('pusher'),
  key: z.string(),
  cluster: z.string(),
  encrypted: z.boolean(),
  // Not fixed by docs/product.md §3 (tolerant reader): absent means Pusher's defaults, see
  // src/machines/realtime/echo-options.ts. Our server sends all four (wsHost null = this host).
  wsHost: z.optional(z.nullable(z.string())),
  wsPort: z.optional(z.nullable(z.int())),
  forceTLS: z.optional(z.boolean()),
  authEndpoint: z.optional(z.string()),
});
export type EchoInfo = z.infer<typeof echoInfoSchema>;

/** Channel names (docs/product.md §3 channels): the staff and the customer notifications channels. */
export const channelsSchema = z.object({
  'administration.notifications': z.object({ channel: z.string() }),
  'administration.notifications_customers': z.object({ channel: z.string() }),
});
export type Channels = z.infer<typeof channelsSchema>;

/** Call 3 response. */
export const realtimeCredentialsResponseSchema = z.object({
  data: z.object({ echo_info: echoInfoSchema, channels: channelsSchema }),
});
export type RealtimeCredentials = z.infer<typeof realtimeCredentialsResponseSchema>['data'];

/** An active location (local) as call 9 lists it; stored whole as `local_active`. */
export const localSchema = z.object({
  id: z.int().check(z.positive()),
  name: z.string(),
  // docs/product.md §3: "Local … fields not shown": only the id and the name the app shows are required
  // (tolerant reader, docs/contracts.md); our server always sends the address.
  address: z.optional(z.string()),
});
export type Local = z.infer<typeof localSchema>;
/** Call 9 response: `message` is the list of active locations (docs/product.md §7). */
export const activeLocalsResponseSchema = z.object({ message: z.array(localSchema) });

/** Call 10 response: parallel lists of role names and ids (docs/product.md §7). */
export const roleNamesResponseSchema = z.object({
  message: z.array(z.string()),
  id: z.array(z.int()),
});
/** A role list entry as stored under `roles` (docs/product.md §3): name and code (id). */
export const roleEntrySchema = z.object({ name: z.string(), code: z.int() });
export type RoleEntry = z.infer<typeof roleEntrySchema>;

/** Call 11 response: the permission strings of docs/product.md §6. */
export const rolePermissionsResponseSchema = z.object({ permissions: z.array(z.string()) });

/** Call 4 / 5 request: the DNI (document number for customers) whose password is forgotten. */
export const resetRequestSchema = z.strictObject({
  dni: z.string().check(z.trim(), z.minLength(1, 'Ingrese su número de documento'), z.maxLength(20)),
});
/** Minimum password length (issue "Foundation"; docs/product.md §9 shows no rule). */
export const PASSWORD_MIN_LENGTH = 8;
/** Call 6 request: `id` is the opaque reset token of the link, `password` the new one. */
export const newPasswordSchema = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  password: z
    .string()
    .check(z.minLength(PASSWORD_MIN_LENGTH, `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres`), z.maxLength(200)),
});
/**
 * Query of GET password_reset_{type}: `id` is the reset link's token, checked without being used so
 * the reset page can tell a bad or used link on arrival (docs/decisions.md "Customer journey details
 * (accessibility)").
 */
export const resetLinkQuerySchema = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(200)) });
export type ResetLinkQuery = z.infer<typeof resetLinkQuerySchema>;
/** Call 7 form body. */
export const logoutRequestSchema = z.strictObject({ user_type: userTypeSchema });
/** Call 8 form body: `styles` is a JSON string of {@link styleSettingsSchema}. */
export const storeStylesRequestSchema = z.strictObject({ styles: z.string().check(z.maxLength(2000)) });
/** Call 15 form body (the confirmation is client-side only, docs/product.md §3). */
export const changePasswordRequestSchema = z.strictObject({
  actual_password: z.string().check(z.minLength(1, 'Ingrese su contraseña actual'), z.maxLength(200)),
  new_password: z
    .string()
    .check(z.minLength(PASSWORD_MIN_LENGTH, `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres`), z.maxLength(200)),
});

/** Age of majority in Peru (Civil Code art. 42): 18 years. */
export const ADULT_AGE = 18;

/** A calendar date as year, month (1–12) and day. */
interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * Reads an ISO calendar date `YYYY-MM-DD` (proleptic Gregorian, as Temporal.PlainDate).
 * @returns the date, or null when the text is not in that form or names no real day (2025-02-30).
 */
function parseCalendarDate(text: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days ? { year, month, day } : null;
}

/** Sorts two calendar dates: negative, zero or positive as `a` is before, equal to or after `b`. */
function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Whole years from `birthday` to `today` (`today` not before `birthday`), as Temporal's
 * `birthday.until(today, { largestUnit: 'years' }).years`: a birthday on 29 February completes a
 * year on 1 March in common years.
 */
function completedYears(birthday: CalendarDate, today: CalendarDate): number {
  const beforeBirthday = today.month < birthday.month || (today.month === birthday.month && today.day < birthday.day);
  return today.year - birthday.year - (beforeBirthday ? 1 : 0);
}

/**
 * Customer self-registration (call 1), docs/product.md §3 fields. Built per call because "adult" depends on
 * today's date in America/Lima.
 * @param today ISO date (YYYY-MM-DD) in America/Lima.
 * Rules: SUNAT document type and number, email, Peruvian mobile (9 digits starting with 9),
 * age ≥ 18, password ≥ 8 characters. Every failure is reported on its own field.
 * The date rules use plain calendar arithmetic (no Temporal), so the web app loads this schema
 * without temporal-polyfill: the birthday is a real day (as src/schemas/dates.ts checks with
 * Temporal) not before CALENDAR_DATE_BOUNDS.min.
 */
export function createRegistrationSchema(today: string) {
  const todayDate = parseCalendarDate(today);
  if (!todayDate) throw new RangeError(`createRegistrationSchema: "${today}" is not an ISO date`);
  return z
    .strictObject({
      id_document_type: z.enum(['1', '4', '6', '7'], { error: 'Seleccione un tipo de documento válido' }),
      document_number: z.string().check(z.trim(), z.minLength(1, 'Ingrese su número de documento'), z.maxLength(20)),
      name: z.string().check(z.trim(), z.minLength(1, 'Ingrese sus nombres'), z.maxLength(100)),
      surname: z.string().check(z.trim(), z.minLength(1, 'Ingrese sus apellidos'), z.maxLength(100)),
      birthday_date: isoDateSchema,
      email: z.email({ error: 'Ingrese un correo electrónico válido' }).check(z.maxLength(120)),
      phone: z.string().check(z.regex(/^9\d{8}$/, 'El celular debe tener 9 dígitos y empezar con 9')),
      password: z
        .string()
        .check(z.minLength(PASSWORD_MIN_LENGTH, `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres`), z.maxLength(200)),
    })
    .check(
      z.superRefine((value, ctx) => {
        const docError = documentNumberError(value.id_document_type, value.document_number);
        if (docError) ctx.addIssue({ code: 'custom', path: ['document_number'], message: docError });
        // Text that is not YYYY-MM-DD already failed isoDateSchema ('Fecha inválida').
        if (!isoDateSchema.safeParse(value.birthday_date).success) return;
        const birthday = parseCalendarDate(value.birthday_date);
        if (!birthday) {
          ctx.addIssue({ code: 'custom', path: ['birthday_date'], message: 'Fecha inválida' });
        } else if (value.birthday_date < CALENDAR_DATE_BOUNDS.min) {
          ctx.addIssue({ code: 'custom', path: ['birthday_date'], message: CALENDAR_DATE_MESSAGES.outOfRange });
        } else if (compareDates(birthday, todayDate) > 0 || completedYears(birthday, todayDate) < ADULT_AGE) {
          ctx.addIssue({ code: 'custom', path: ['birthday_date'], message: 'Debe ser mayor de edad para registrarse' });
        }
      }),
    );
}
export type RegistrationRequest = z.infer<ReturnType<typeof createRegistrationSchema>>;

/** Call 1 response: 201 with a Spanish message and the new customer's id. */
export const registrationResponseSchema = z.object({
  message: z.string(),
  data: z.object({ id: z.int().check(z.positive()) }),
});
