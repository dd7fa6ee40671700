import type { z } from 'zod';
import type { ApiClient } from '../client';
import { request } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  companyResponseSchema,
  createLocalRequestSchema,
  localResponseSchema,
  localsPageSchema,
  updateLocalRequestSchema,
  type Company,
  type LocalRecord,
  type UpdateCompanyRequest,
} from '../../schemas/configuracion/company';

/**
 * Configuración → Empresas: the company, its logo and its locals (staff base, 'Acceso módulo
 * configuración' + 'Acceso submódulo empresas'). Throws {@link import('../client').ApiError}.
 */
export function createCompanyApi(client: ApiClient) {
  const company = async (run: () => Promise<unknown>): Promise<Company> => (await request(companyResponseSchema, run)).data;
  const local = async (run: () => Promise<unknown>): Promise<LocalRecord> => (await request(localResponseSchema, run)).data;
  return {
    /** GET company. */
    get: () => company(() => client.main('company')),
    /** PATCH company. */
    update: (body: UpdateCompanyRequest) => company(() => client.main('company', { method: 'PATCH', body })),
    /** POST company/logo, multipart field `logo` (PNG/JPEG/SVG ≤ 1 MB). */
    uploadLogo: (file: Blob, filename = 'logo') => {
      const body = new FormData();
      body.append('logo', file, filename);
      return company(() => client.main('company/logo', { method: 'POST', body }));
    },
    /** GET locals (`q`, filter `active`). */
    listLocals: (query: ListQuery) => request(localsPageSchema, () => client.main('locals', { query: listParams(query) })),
    /** POST locals. */
    createLocal: (body: z.input<typeof createLocalRequestSchema>) => local(() => client.main('locals', { method: 'POST', body })),
    /** PATCH locals/{id}. */
    updateLocal: (id: number, body: z.input<typeof updateLocalRequestSchema>) =>
      local(() => client.main(`locals/${id}`, { method: 'PATCH', body })),
    /** GET locals/{id}. */
    getLocal: (id: number) => local(() => client.main(`locals/${id}`)),
    /** POST locals/{id}/activate | deactivate. */
    setLocalActive: (id: number, active: boolean) =>
      local(() => client.main(`locals/${id}/${active ? 'activate' : 'deactivate'}`, { method: 'POST' })),
  };
}
export type CompanyApi = ReturnType<typeof createCompanyApi>;
