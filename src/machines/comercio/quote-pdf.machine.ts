import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { saveBlobFile } from '../../lib/download';
import type { Quote } from '../../schemas/comercio/quotes';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/**
 * "Descargar PDF" of a quote from a list (Comercial → Ventas → Cotizaciones): idle →
 * (`pdf.download {quote}`) downloading → idle. Provide `download` (usually {@link saveQuotePdf});
 * `failed` ({message}) shows the refusal, `reportApiError` hands 401/402/404 to the session.
 * `context.quoteId` is the quote being downloaded (its row's button spins).
 */
export const quotePdfMachine = setup({
  types: {
    context: {} as { quoteId: number | null; quote: Quote | null },
    events: {} as { type: 'pdf.download'; quote: Quote },
  },
  actors: { download: placeholder<void, { quote: Quote }>('download') },
  actions: {
    failed: (_, _p: { message: string }) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'quotePdf',
  context: { quoteId: null, quote: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'pdf.download': { target: 'downloading', actions: assign(({ event }) => ({ quoteId: event.quote.id, quote: event.quote })) } },
    },
    downloading: {
      invoke: {
        src: 'download',
        input: ({ context }) => ({ quote: context.quote! }),
        onDone: { target: 'idle', actions: assign({ quoteId: null, quote: null }) },
        onError: {
          target: 'idle',
          actions: [
            { type: 'failed', params: ({ event }) => ({ message: errorMessage(event.error) }) },
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            assign({ quoteId: null, quote: null }),
          ],
        },
      },
    },
  },
});
export type QuotePdfMachine = typeof quotePdfMachine;

/**
 * GET quotes/{id}/pdf and save it as `COT-….pdf` — the one way the app downloads a quote's PDF (the
 * quote dialog of the maps and the Cotizaciones tab).
 * @param pdf the quotes api's `pdf` (throws ApiError); @param save defaults to a browser download.
 */
export async function saveQuotePdf(
  pdf: (id: number) => Promise<Blob>,
  quote: Pick<Quote, 'id' | 'number'>,
  save: (blob: Blob, fileName: string) => void = saveBlobFile,
): Promise<void> {
  save(await pdf(quote.id), `${quote.number}.pdf`);
}
