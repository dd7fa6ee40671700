/**
 * The URL segment `{name}` of the project routes (/PROYECTOS/Lotes/{name}/{id_encrypted}, the maps):
 * the subdivision's name in lower case with accents removed and spaces as "-" ("Los Viñedos" →
 * "los-vinedos"). The server ignores it; it only makes links readable. Shared by the views
 * (src/views/proyectos/lot-status.ts re-exports it) and the server's report links.
 */
export function nameSegment(name: string): string {
  return (
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'proyecto'
  );
}
