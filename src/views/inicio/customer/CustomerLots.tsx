import { Card, Classes, H4 } from '@blueprintjs/core';
import { LinkButton } from '../../shared/LinkButton';
import type { Purchase } from '../../../schemas/comercio/purchases';
import { purchaseDetailPath, saleStatusLabel } from '../../comercio/MyPurchasesPage';

/**
 * The customer's lots on their Inicio (docs/dashboard.md "The customer's Inicio"): per purchase the
 * lot and subdivision, "Ver en el plano" (the map opened on that lot) when the subdivision has a
 * published plan, and "Ver contrato" once its compraventa contract is issued (the download is in
 * Detalle de Compra, beside the statement).
 * @param mapPath builds the customer map's address (src/views/mapas/customer-map-path.ts).
 */
export function CustomerLots({
  purchases,
  mapPath,
}: {
  purchases: readonly Purchase[];
  mapPath: (subdivisionName: string, subdivisionKey: string, lotCode?: string | null) => string;
}) {
  return (
    <Card className="customer-home-card customer-home-lots" elevation={1} aria-labelledby="my-lots-title">
      <H4 id="my-lots-title">Mis lotes</H4>
      <ul className="customer-home-lot-list">
        {purchases.map((p) => (
          <li key={p.id}>
            <div>
              <strong>{p.lot_code}</strong> · {p.subdivision_name} <span className={Classes.TEXT_MUTED}>({saleStatusLabel(p.status)})</span>
            </div>
            <div className="customer-home-lot-actions">
              {p.map ? (
                <LinkButton
                  href={mapPath(p.map.subdivision_name, p.map.subdivision_key, p.map.lot_code)}
                  small
                  icon="map"
                  text="Ver en el plano"
                  label={`Ver en el plano: ${p.lot_code}`}
                />
              ) : null}
              {p.contract_pdf_url ? (
                <LinkButton
                  href={purchaseDetailPath(p.id)}
                  small
                  icon="document"
                  text="Ver contrato"
                  label={`Ver contrato: ${p.lot_code}`}
                />
              ) : null}
              <LinkButton href={purchaseDetailPath(p.id)} small minimal text="Ver detalle" label={`Ver detalle: ${p.lot_code}`} />
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
