import { APP_VERSION, COMPANY_LABEL, DEVELOPER_CREDIT } from '../shared/version';

/**
 * The layout's footer (docs/product.md §1 "Footer shows a company label, a developer credit and the system
 * version v0.6.0a"; docs/product.md §2). The company's
 * own name is not known to the client, so the label is the product's.
 */
export function Footer() {
  return (
    <footer className="layout-footer">
      <span className="layout-footer-company">{COMPANY_LABEL}</span>
      <span aria-hidden="true">·</span>
      <span>{DEVELOPER_CREDIT}</span>
      <span aria-hidden="true">·</span>
      <span>{APP_VERSION}</span>
    </footer>
  );
}
