/**
 * Machines whose code is fetched on demand (performance, issue "Foundation"): the screens that are
 * not the staff login load their machine module only when first shown.
 *
 * - {@link lazyModule}: one dynamic import shared by every app instance, readable synchronously
 *   once loaded; a failed import is forgotten so the next call tries again.
 * - {@link onDemand}: the machine built from that module with this app's effects, as a promise that
 *   React's `use()` can suspend on. Once the module is loaded the promise comes already marked
 *   fulfilled (React's thenable fields `status`/`value`), so `use()` returns at once and a screen
 *   shown again never flashes its spinner.
 */

/** A promise carrying the fields React's `use()` reads to skip suspending on a settled one. */
type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

export interface LazyModule<M> {
  /** Starts (or joins) the import. */
  load(): Promise<M>;
  /** The module once imported, else undefined. */
  readonly loaded: M | undefined;
}

export function lazyModule<M>(importModule: () => Promise<M>): LazyModule<M> {
  let pending: Promise<M> | null = null;
  let loaded: M | undefined;
  return {
    load: () =>
      (pending ??= importModule().then(
        (module) => (loaded = module),
        (error: unknown) => {
          pending = null;
          throw error;
        },
      )),
    get loaded() {
      return loaded;
    },
  };
}

function fulfilled<T>(value: T): TrackedPromise<T> {
  const promise: TrackedPromise<T> = Promise.resolve(value);
  promise.status = 'fulfilled';
  promise.value = value;
  return promise;
}

function tracked<T>(promise: Promise<T>): TrackedPromise<T> {
  const result: TrackedPromise<T> = promise;
  result.status = 'pending';
  promise.then(
    (value) => {
      result.status = 'fulfilled';
      result.value = value;
    },
    (reason: unknown) => {
      result.status = 'rejected';
      result.reason = reason;
    },
  );
  return result;
}

/**
 * @param module the machine's module, loaded on demand
 * @param build provides the module's machine with this app's effects (called once per app)
 * @returns a loader returning the same promise on every call (a new attempt after a failure)
 */
export function onDemand<M, T>(module: LazyModule<M>, build: (module: M) => T): () => Promise<T> {
  let result: TrackedPromise<T> | null = null;
  return () => {
    if (result && result.status !== 'rejected') return result;
    const loaded = module.loaded;
    result = loaded ? fulfilled(build(loaded)) : tracked(module.load().then(build));
    return result;
  };
}
