import type { SyntheticEvent } from 'react';
import { PRODUCT_LOGO, PRODUCT_NAME } from '../../config/paths';
import { apiBases } from '../../config/env';

export { PRODUCT_LOGO };
/** The company's uploaded logo on the public base (issue "Configuración": shown in the top bar). */
export const COMPANY_LOGO = `${apiBases.public.replace(/\/$/, '')}/logo`;

/** Falls back to Parcela's logo when /logo fails (our server answers with Parcela's logo itself; another backend may answer 404). */
function fallBackToProductLogo(event: SyntheticEvent<HTMLImageElement>) {
  const img = event.currentTarget;
  if (!img.src.endsWith(PRODUCT_LOGO)) img.src = PRODUCT_LOGO;
}

/**
 * Logo and name "Parcela" (docs/product.md §1 "The top bar shows the product name/logo"). `company` shows the
 * company's uploaded logo (Configuración → Empresas) with Parcela's as the fallback. `size` is the
 * logo's side in px.
 */
export function Brand({ size = 40, className, company = false }: { size?: number; className?: string; company?: boolean }) {
  return (
    <span className={['brand', className].filter(Boolean).join(' ')}>
      <img
        src={company ? COMPANY_LOGO : PRODUCT_LOGO}
        alt=""
        width={size}
        height={size}
        className="brand-logo"
        onError={company ? fallBackToProductLogo : undefined}
      />
      <span className="brand-name">{PRODUCT_NAME}</span>
    </span>
  );
}
