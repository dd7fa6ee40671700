/** System version shown in the footer (docs/product.md §1, §9: v0.6.0a). */
export const APP_VERSION = 'v0.6.0a';
/** Developer credit of the footer (docs/product.md §1). */
export const DEVELOPER_CREDIT = 'Desarrollado por el equipo Parcela';
/** Company label of the footer (docs/product.md §1): the client does not know the company's name, so the product's. */
export const COMPANY_LABEL = 'Parcela';
