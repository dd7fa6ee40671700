import { StatusPage } from '../shared/StatusPage';

/**
 * Public sales map at /mapa/{name}/{id_encrypted} (SPEC §2, outside the authenticated layout). Until
 * the Proyectos module lands it says so; it shows no data of its own.
 * @param name the project name segment of the URL (already decoded).
 */
export function PublicMapPage({ name }: { name: string; idEncrypted?: string }) {
  return (
    <StatusPage
      icon="map"
      title="Mapa de ventas"
      description={
        <>
          {name ? (
            <>
              Proyecto: <strong>{name}</strong>.{' '}
            </>
          ) : null}
          El mapa de ventas estará disponible con el módulo Proyectos.
        </>
      }
      action={{ text: 'Conozca nuestros lotes', to: '/landing' }}
    />
  );
}
