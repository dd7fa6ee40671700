/**
 * Build-time environment of the web app (Vite `import.meta.env`). Each API base defaults to the
 * same origin (docs/api.md "Bases"); set VITE_API_*_BASE to point the app at another backend.
 * Read without zod: this module is in the login page's entry chunk, which carries no zod
 * (docs/decisions.md "Compression and the login budget"); Vite gives every variable as a string.
 */
const raw = (import.meta as { env?: Record<string, unknown> }).env ?? {};

/**
 * The variable `name` of the build environment, or `fallback` when it is not set.
 * @throws Error at start-up when it is set to something other than a string (a broken build)
 */
function base(name: string, fallback: string): string {
  const value = raw[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw new Error(`${name} debe ser un texto`);
  return value;
}

/** The four API bases the api client uses. */
export const apiBases = {
  main: base('VITE_API_MAIN_BASE', '/api'),
  customer: base('VITE_API_CUSTOMER_BASE', '/api/customer'),
  private: base('VITE_API_PRIVATE_BASE', '/api/private'),
  public: base('VITE_API_PUBLIC_BASE', '/'),
} as const;
export type ApiBases = { main: string; customer: string; private: string; public: string };
