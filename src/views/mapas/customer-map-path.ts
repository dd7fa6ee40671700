import { nameSegment } from '../proyectos/lot-status';

/**
 * The customer map's address and its `?lote=` (docs/decisions.md "Customer journey details
 * (accessibility)"): kept apart from the map page so Detalle de Compra links to it without loading
 * the map's code.
 */

/**
 * The lot code of `?lote=` (the customer's own lot, from "Ver en el plano" in Detalle de Compra), or
 * null when absent, blank or longer than a lot code can be.
 */
export function lotFromSearch(search: string): string | null {
  const code = (new URLSearchParams(search).get('lote') ?? '').trim();
  return code !== '' && code.length <= 60 ? code : null;
}

/** The customer map's address selecting a lot: `/COMERCIO/MapSalesCustomer/{name}/{key}?lote={code}`. */
export function customerMapPath(subdivisionName: string, subdivisionKey: string, lotCode?: string | null): string {
  const path = `/COMERCIO/MapSalesCustomer/${nameSegment(subdivisionName)}/${encodeURIComponent(subdivisionKey)}`;
  return lotCode ? `${path}?${new URLSearchParams({ lote: lotCode }).toString()}` : path;
}
