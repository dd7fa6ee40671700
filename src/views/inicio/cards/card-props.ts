/**
 * What every card body receives: its figures (the card's response `data`), the theme (for the
 * charts) and the user's permissions (a figure links only to a list the user may open).
 */
export interface CardBodyProps<T> {
  data: T;
  dark: boolean;
  permissions: readonly string[];
}

/** "1 venta" / "3 ventas": a count with its noun in the right number. */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
