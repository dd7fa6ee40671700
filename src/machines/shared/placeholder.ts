import { fromPromise } from 'xstate';

/**
 * A promise actor that only fails: declares a named actor's types in `setup()` while the real
 * implementation is supplied with `.provide()` (the api call in the app, a fake in tests; design
 * docs/architecture.md: every effect is named in `setup()` and supplied with `.provide()`).
 * The helpers that read a failed call's error live in api-errors.ts.
 */
export function placeholder<TOutput, TInput = void>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`actor "${name}" was not provided`);
  });
}
