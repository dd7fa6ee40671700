import { useEffect } from 'react';
import { pageTitle } from '../../config/paths';

/**
 * Sets the document title to `<title> | Parcela` (SPEC §2 "Page title") while the calling screen
 * is shown.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
