import * as z from 'zod/mini';

/**
 * Build-time environment of the web app (Vite `import.meta.env`), parsed by zod. Each API base
 * defaults to the same origin (docs/api.md "Bases"); set VITE_API_*_BASE to point the app at
 * another backend.
 */
const envSchema = z.object({
  VITE_API_MAIN_BASE: z._default(z.string(), '/api'),
  VITE_API_CUSTOMER_BASE: z._default(z.string(), '/api/customer'),
  VITE_API_PRIVATE_BASE: z._default(z.string(), '/api/private'),
  VITE_API_PUBLIC_BASE: z._default(z.string(), '/'),
});

const raw = (import.meta as { env?: Record<string, unknown> }).env ?? {};
const parsed = envSchema.parse(raw);

/** The four API bases the api client uses. */
export const apiBases = {
  main: parsed.VITE_API_MAIN_BASE,
  customer: parsed.VITE_API_CUSTOMER_BASE,
  private: parsed.VITE_API_PRIVATE_BASE,
  public: parsed.VITE_API_PUBLIC_BASE,
} as const;
export type ApiBases = { main: string; customer: string; private: string; public: string };
