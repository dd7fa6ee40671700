import { LoadingOverlay } from './LoadingOverlay';

/**
 * Shown while a screen's code loads (the Suspense fallback of the lazy screens): the pulsing rings
 * of the loading overlay (docs/product.md §2), over the whole page (`full`) or in the area it
 * replaces. Like the overlay, it fades in after 200 ms, so a fast load shows nothing at all.
 */
export function PageLoading({ full = false, small = false }: { full?: boolean; small?: boolean }) {
  return <LoadingOverlay full={full} small={small} />;
}
