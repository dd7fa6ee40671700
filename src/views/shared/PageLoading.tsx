import { Spinner, SpinnerSize } from '@blueprintjs/core';

/**
 * Shown while a screen's code loads (the Suspense fallback of the lazy screens): a Blueprint
 * Spinner centred in the page (`full`) or in the area it replaces. It fades in after 200 ms, so a
 * fast load shows nothing at all.
 */
export function PageLoading({ full = false, small = false }: { full?: boolean; small?: boolean }) {
  return (
    <div className={['page-loading', full ? 'page-loading-full' : null, small ? 'page-loading-small' : null].filter(Boolean).join(' ')}>
      <Spinner size={small ? SpinnerSize.SMALL : SpinnerSize.STANDARD} aria-label="Cargando" />
    </div>
  );
}
