/**
 * Spanish UI labels, the default (docs/product.md §1 "Interface language: Spanish"; §9 UI labels), used by
 * the date, select, search and password widgets. Letter for letter as docs/product.md §9 writes them.
 */
export const es = {
  apply: 'Aplicar',
  clear: 'Limpiar',
  cancel: 'Cancelar',
  yes: 'Sí',
  no: 'No',
  today: 'Hoy',
  chooseDate: 'Elegir fecha',
  weak: 'Débil',
  medium: 'Medio',
  strong: 'Fuerte',
  passwordPrompt: 'Ingrese una contraseña',
  emptySearchMessage: 'No se encontraron resultados',
  emptyOptionsMessage: 'No hay opciones disponibles',
} as const;

/** The label keys; every locale defines them all. */
export type LabelKey = keyof typeof es;
/** A catalogue of labels for one locale. */
export type Labels = Readonly<Record<LabelKey, string>>;
