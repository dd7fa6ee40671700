import { assertEvent, assign, raise, setup, type AnyActorRef } from 'xstate';
import type { ApiError } from '../../api/client';
import { placeholder } from './placeholder';
import { errorMessage } from './api-errors';

/**
 * The image of one record behind an authenticated /api path — a subdivision's plan
 * (../proyectos/plan-image.machine.ts), a wallet's QR (../finanzas/wallet-qr.machine.ts). An
 * `<img src>` cannot send the session's token, so the machine fetches the image as a Blob through
 * the api client and owns its object URL (created on load, revoked when replaced and when the actor
 * stops). An upload is checked first by the record's own rule (type and size; the server checks the
 * bytes again: its 422 is shown); after it, the new image is loaded and the list the editor belongs
 * to is told `list.refresh` (machine to machine, through the ref in the input: no view relays it).
 *
 * Input `{ target, url, list? }`: the record's id or key, its image path (null: none yet), the list.
 * Parallel regions — image: checking → empty | loading → shown | failure (`image.retry`); upload:
 * idle → (`image.upload {file}`) uploading → idle, `uploaded(record)`.
 * Injected: actors `load` ({url} → object URL) and `upload` ({target, file} → the record as saved);
 * actions `uploaded` (a toast) and `reportApiError` (session errors).
 */

/** The machine's context; `Target` is how the api names the record (an id or an opaque key). */
export interface RecordImageContext<Target> {
  target: Target;
  /** The image's authenticated path, or null when the record has none. */
  url: string | null;
  /** Told `list.refresh` after an upload (the list whose row shows the image), if given. */
  list: AnyActorRef | null;
  /** Object URL of the loaded image (revoked on change / stop). */
  objectUrl: string | null;
  error: string | null;
  uploadError: string | null;
}

export type RecordImageEvent =
  { type: 'image.upload'; file: File } | { type: 'image.retry' } | { type: 'image.urlChanged'; url: string | null };

const revoke = (url: string | null) => {
  if (url) URL.revokeObjectURL(url);
};

/**
 * The machine of one kind of record image.
 * @param options `id` of the machine; `fileError`: the Spanish refusal of a file the server would
 *   refuse, or null; `urlOf`: the image path of the record as the upload answers it.
 */
export function createRecordImageMachine<Target, Saved>(options: {
  id: string;
  fileError: (file: { type: string; size: number }) => string | null;
  urlOf: (saved: Saved) => string | null;
}) {
  return setup({
    types: {
      context: {} as RecordImageContext<Target>,
      events: {} as RecordImageEvent,
      input: {} as { target: Target; url: string | null; list?: AnyActorRef | null },
    },
    actors: {
      /** GET the image bytes → an object URL. */
      load: placeholder<string, { url: string }>('load'),
      /** POST the image → the record as saved. */
      upload: placeholder<Saved, { target: Target; file: File }>('upload'),
    },
    actions: {
      /** After an upload; receives the record as saved. */
      uploaded: (_, _saved: unknown) => {},
      reportApiError: (_, _e: ApiError) => {},
    },
    guards: { hasImage: ({ context }) => context.url !== null },
  }).createMachine({
    id: options.id,
    context: ({ input }) => ({
      target: input.target,
      url: input.url,
      list: input.list ?? null,
      objectUrl: null,
      error: null,
      uploadError: null,
    }),
    exit: ({ context }) => revoke(context.objectUrl),
    type: 'parallel',
    states: {
      image: {
        initial: 'checking',
        on: { 'image.urlChanged': { target: '.checking', actions: assign(({ event }) => ({ url: event.url })) } },
        states: {
          checking: { always: [{ guard: 'hasImage', target: 'loading' }, { target: 'empty' }] },
          empty: {},
          loading: {
            invoke: {
              src: 'load',
              input: ({ context }) => ({ url: context.url! }),
              onDone: {
                target: 'shown',
                actions: assign(({ context, event }) => {
                  revoke(context.objectUrl);
                  return { objectUrl: event.output, error: null };
                }),
              },
              onError: { target: 'failure', actions: assign(({ event }) => ({ error: errorMessage(event.error) })) },
            },
          },
          shown: {},
          failure: { on: { 'image.retry': 'loading' } },
        },
      },
      upload: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'image.upload': [
                {
                  guard: ({ event }) => options.fileError(event.file) !== null,
                  actions: assign(({ event }) => ({ uploadError: options.fileError(event.file) })),
                },
                { target: 'uploading', actions: assign({ uploadError: null }) },
              ],
            },
          },
          uploading: {
            invoke: {
              src: 'upload',
              input: ({ context, event }) => {
                assertEvent(event, 'image.upload');
                return { target: context.target, file: event.file };
              },
              onDone: {
                target: 'idle',
                actions: [
                  { type: 'uploaded', params: ({ event }: { event: { output: Saved } }) => event.output },
                  raise(({ event }) => ({ type: 'image.urlChanged' as const, url: options.urlOf(event.output) })),
                  ({ context }) => context.list?.send({ type: 'list.refresh' }),
                ],
              },
              onError: {
                target: 'idle',
                actions: [
                  assign(({ event }) => ({ uploadError: errorMessage(event.error) })),
                  { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                ],
              },
            },
          },
        },
      },
    },
  });
}
