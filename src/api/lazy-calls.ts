/**
 * An api module whose code is imported on its first call (docs/decisions.md "Compression and the
 * login budget"): the session and notifications calls are built at start-up, but their zod schemas
 * must not be in the login page's entry chunk. Every function named in `names` returns the promise
 * of the loaded module's function of that name, so the callers (the machines' actors) see the same
 * api.
 * @param load imports the module and builds the api (once; again after a failed import)
 * @param names every function of the api (`Record<keyof T, true>`: a function added to the module
 *   and not named here is a type error)
 * @returns `calls`, the api, and `preload()`, which starts the import early (a failure is left to
 *   the first call)
 */
export function lazyCalls<T extends { [K in keyof T]: (...args: never[]) => Promise<unknown> }>(
  load: () => Promise<T>,
  names: Record<keyof T, true>,
): { calls: T; preload: () => void } {
  let loading: Promise<T> | undefined;
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const calls = Object.fromEntries(
    (Object.keys(names) as (keyof T & string)[]).map((name) => [
      name,
      (...args: never[]) => get().then((api) => (api[name] as (...a: never[]) => Promise<unknown>)(...args)),
    ]),
  ) as T;
  return {
    calls,
    preload: () => {
      get().catch(() => {
        /* the first call reports it */
      });
    },
  };
}
