import type { ReactNode } from 'react';
import { Button, InputGroup, Spinner } from '@blueprintjs/core';

/**
 * The map pages' markup that needs no data (issue "Production grade": first paint of the public
 * map): pure components with no hooks, drawn both by the app and, for /mapa/{name}/{key}, by the
 * server into the page's HTML (server/preload-hints.ts; docs/decisions.md "Skeleton first"). The
 * app's first render of a loading map is then the same markup, and the loaded map takes the same
 * boxes: the toolbar in its place, the drawing in the canvas's fixed-height box.
 */

/** The search box's placeholder. */
export const MAP_SEARCH_PLACEHOLDER = 'Buscar lote (MZ A - LT 12 o A-12)';

/** `<h1>` "{title}", with " · {name}" once the subdivision's name is known. */
export function MapPageHeader({ title, name }: { title: string; name?: string }) {
  return (
    <div className="map-page__header">
      <h1 id="map-title" className="map-page__title">
        {title}
        {name ? <span className="map-page__subtitle"> · {name}</span> : null}
      </h1>
    </div>
  );
}

/**
 * The map's toolbar: the lot search box (with its message) and `extra`, the page's own controls.
 * Without `onSearch` (the map is still loading) the box and its button are disabled. LotMap's
 * live toolbar and {@link LotMapLoading} both draw it, so the loaded toolbar takes the same place.
 */
export function MapToolbarView({
  text,
  message,
  extra,
  onTextChange,
  onSearch,
}: {
  text?: string;
  message?: string | null;
  extra?: ReactNode;
  onTextChange?: (text: string) => void;
  onSearch?: () => void;
}) {
  const disabled = !onSearch;
  return (
    <div className="lot-map__toolbar">
      <form
        className="lot-map__search"
        role="search"
        onSubmit={
          onSearch &&
          ((e) => {
            e.preventDefault();
            onSearch();
          })
        }
      >
        <InputGroup
          leftIcon="search"
          placeholder={MAP_SEARCH_PLACEHOLDER}
          aria-label="Buscar lote"
          value={text}
          onValueChange={onTextChange}
          disabled={disabled}
          rightElement={<Button type="submit" variant="minimal" icon="arrow-right" aria-label="Ir al lote" disabled={disabled} />}
        />
        {message ? (
          <span className="lot-map__search-message" role="alert">
            {message}
          </span>
        ) : null}
      </form>
      {extra ? <div className="lot-map__extra">{extra}</div> : null}
    </div>
  );
}

/**
 * A map while its data loads: the toolbar with the search box disabled (and `extra`, as the live
 * toolbar draws it), and the canvas's box with a spinner (the box has the drawing's height,
 * src/styles/maps.css).
 */
export function LotMapLoading({ extra }: { extra?: ReactNode }) {
  return (
    <div className="lot-map" aria-busy="true">
      <MapToolbarView extra={extra} />
      <div className="lot-map__body">
        <div className="lot-map__canvas">
          <Spinner className="lot-map__spinner" aria-label="Cargando mapa" />
        </div>
      </div>
    </div>
  );
}

/** The public map's page around its content (outside the authenticated layout). */
export function PublicMapFrame({ children }: { children: ReactNode }) {
  return (
    <main className="public-map">
      <div className="public-map__inner">{children}</div>
    </main>
  );
}

/** Title of the public and customer maps. */
export const PUBLIC_MAP_TITLE = 'Mapa de ventas';

/** "Copiar enlace" of the public and customer maps (disabled until the map has loaded). */
export function CopyLinkButtonView({ disabled = false, onClick }: { disabled?: boolean; onClick?: () => void }) {
  return <Button icon="link" text="Copiar enlace" disabled={disabled} onClick={onClick} />;
}

/** The public map before its data: what the server draws at /mapa/{name}/{key}, and the app's first render there. */
export function PublicMapSkeleton() {
  return (
    <PublicMapFrame>
      <section className="map-page" aria-labelledby="map-title">
        <MapPageHeader title={PUBLIC_MAP_TITLE} />
        <LotMapLoading extra={<CopyLinkButtonView disabled />} />
      </section>
    </PublicMapFrame>
  );
}
