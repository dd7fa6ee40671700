import { useEffect } from 'react';
import { pageTitle } from '../../config/paths';

/**
 * Sets the document title to `<title> | Parcela` (docs/product.md §2 "Page title") while the calling screen
 * is shown; `null` leaves it unchanged (e.g. while redirecting).
 */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = pageTitle(title);
  }, [title]);
}
