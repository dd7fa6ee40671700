/** What every card body receives: its figures (the card's response `data`) and the theme (for the charts). */
export interface CardBodyProps<T> {
  data: T;
  dark: boolean;
}

/** "1 venta" / "3 ventas": a count with its noun in the right number. */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
