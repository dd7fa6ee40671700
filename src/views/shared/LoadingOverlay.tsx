/**
 * The loading animation (docs/product.md §2; docs/product.md §2
 * "full-screen loading overlay with animation"). Shown while the session loads its data after login
 * and while a screen's code loads. `full` covers the whole page; otherwise it fills the area it
 * replaces. It fades in after 200 ms, so a fast load shows nothing at all. Announced as a
 * progress bar named "Cargando".
 */
export function LoadingOverlay({ full = false, small = false }: { full?: boolean; small?: boolean }) {
  const classes = ['loading-overlay', full ? 'loading-overlay-full' : null, small ? 'loading-overlay-small' : null];
  return (
    <div className={classes.filter(Boolean).join(' ')} role="progressbar" aria-label="Cargando" aria-busy="true">
      <div className="loading-rings" aria-hidden="true">
        <span className="loading-ring" />
        <span className="loading-ring" />
      </div>
    </div>
  );
}
