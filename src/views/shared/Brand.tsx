import { PRODUCT_NAME } from '../../config/paths';

/**
 * Product logo (/logo.svg, served from public/) and name "Parcela" (SPEC §1 "The top bar shows
 * the product name/logo"). `size` is the logo's side in px.
 */
export function Brand({ size = 40, className }: { size?: number; className?: string }) {
  return (
    <span className={['brand', className].filter(Boolean).join(' ')}>
      <img src="/logo.svg" alt="" width={size} height={size} className="brand-logo" />
      <span className="brand-name">{PRODUCT_NAME}</span>
    </span>
  );
}
