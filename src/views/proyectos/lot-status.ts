import type { Intent } from '@blueprintjs/core';
import type { LotStatus, PublicLotStatus, SubdivisionStatus } from '../../schemas/proyectos/projects';
import { contrastRatio } from '../../lib/contrast';

/**
 * Spanish labels and colours of lot and subdivision statuses (docs/domain.md "Projects and lots"),
 * shared by the lots table, the status dialog and every map (legend, fill). Colours are chosen
 * to read on the light and dark themes and for common colour blindness (green / amber / red /
 * grey / violet / blue differ in lightness too). The lot status labels live in
 * src/schemas/proyectos/projects.ts (the server uses them too) and are re-exported here for the views.
 */
export { LOT_STATUS_LABEL } from '../../schemas/proyectos/projects';

/** Fill colour of a lot on the maps (hex). */
export const LOT_STATUS_COLOR: Readonly<Record<LotStatus, string>> = {
  DISPONIBLE: '#2e9e5b',
  SEPARADO: '#e0a21b',
  VENDIDO: '#c23b3b',
  BLOQUEADO: '#6b7280',
  RESERVA_COMERCIAL: '#7c5cc4',
  CANJE: '#2f6db5',
  // Lots not for sale (parks, club house, equipment, aportes): a neutral sand, apart from the
  // grey of Bloqueado, so the plan reads as land that is simply not on offer.
  NO_VENDIBLE: '#cbbf9f',
};

/** Blueprint intent of the status tag in tables. */
export const LOT_STATUS_INTENT: Readonly<Record<LotStatus, Intent>> = {
  DISPONIBLE: 'success',
  SEPARADO: 'warning',
  VENDIDO: 'danger',
  BLOQUEADO: 'none',
  RESERVA_COMERCIAL: 'primary',
  CANJE: 'primary',
  NO_VENDIBLE: 'none',
};

/** Labels of the statuses the public and customer maps show. */
export const PUBLIC_LOT_STATUS_LABEL: Readonly<Record<PublicLotStatus, string>> = {
  DISPONIBLE: 'Disponible',
  SEPARADO: 'Separado',
  VENDIDO: 'Vendido',
  NO_VENDIBLE: 'No vendible',
};

/** Spanish labels of subdivision statuses. */
export const SUBDIVISION_STATUS_LABEL: Readonly<Record<SubdivisionStatus, string>> = {
  EN_PREVENTA: 'En preventa',
  EN_VENTA: 'En venta',
  AGOTADO: 'Agotado',
  CERRADO: 'Cerrado',
};

/** Intent of the subdivision status tag. */
export const SUBDIVISION_STATUS_INTENT: Readonly<Record<SubdivisionStatus, Intent>> = {
  EN_PREVENTA: 'primary',
  EN_VENTA: 'success',
  AGOTADO: 'warning',
  CERRADO: 'none',
};

/** The URL segment `{name}` of the project routes (src/lib/proyectos/name-segment.ts, shared with the server). */
export { nameSegment } from '../../lib/proyectos/name-segment';

const LOT_STATUS_DARK_TEXT = '#1c2127';

/**
 * Text colour on a {@link LOT_STATUS_COLOR} background: white or near-black, whichever contrasts more
 * (WCAG 2.2 §1.4.3, ≥ 4.5:1 for every status; docs/decisions.md "Colour contrast (WCAG 2.2 AA)"):
 * dark on the green of Disponible, the amber of Separado and the sand of No vendible, white on the rest.
 */
export function lotStatusTextColor(status: LotStatus): string {
  const background = LOT_STATUS_COLOR[status];
  return contrastRatio('#ffffff', background) >= contrastRatio(LOT_STATUS_DARK_TEXT, background) ? '#ffffff' : LOT_STATUS_DARK_TEXT;
}
