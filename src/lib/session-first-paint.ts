import type { Local, SessionUser } from '../schemas/session';

/**
 * Inicio drawn from the stored session before the app's code has arrived (issue "Production grade",
 * Lighthouse LCP of /; docs/decisions.md "Skeleton first"). Inicio's largest text — the active
 * location's address — comes from localStorage, which the server cannot read. So the server writes
 * the page's markup as templates with slots (`⟦name⟧`…, one template per shape of the page,
 * {@link HomeVariant}) into the HTML of "/", and src/boot.ts fills them from the stored session
 * ({@link drawHomeFromSession}) the moment the HTML has been parsed. The app's first render is the
 * same markup (src/views/inicio/HomeView.tsx draws both; tests/views/shell-skeleton.test.tsx).
 *
 * Only types are imported: this module is bundled into boot's chunk (boot stays under 1 KB gzip).
 */

/** The shapes of Inicio's markup: a location with an address, one without, no location. */
export const HOME_VARIANTS = ['address', 'local', 'none'] as const;
export type HomeVariant = (typeof HOME_VARIANTS)[number];
/** Markup of `<div id="root">` for each {@link HomeVariant}, slots unfilled (server/preload-hints.ts). */
export type HomeTemplates = Record<HomeVariant, string>;

/** The values a template's slots take. */
interface HomeSlots {
  name: string;
  surname: string;
  local_name: string;
  local_address: string;
}

/** `⟦key⟧`: a slot in a template's text. The brackets never occur in the page's own text. */
const slot = (key: keyof HomeSlots) => `⟦${key}⟧`;
const SLOT = /⟦(name|surname|local_name|local_address)⟧/g;

/**
 * The props of src/views/inicio/HomeView.tsx whose markup is the template of `variant`: slots in
 * place of the names and no menu groups (those need the icons' code; the app adds them below).
 */
export function homeTemplateProps(variant: HomeVariant): {
  user: Pick<SessionUser, 'name' | 'surname' | 'permissions_names'>;
  local: Local | null;
} {
  const user = { name: slot('name'), surname: slot('surname'), permissions_names: [] };
  if (variant === 'none') return { user, local: null };
  return { user, local: { id: 1, name: slot('local_name'), ...(variant === 'address' ? { address: slot('local_address') } : {}) } };
}

/**
 * The storage keys read (docs/product.md §3; src/lib/storage.ts STORAGE_SCHEMAS, which this module
 * does not import: zod is not in boot's chunk).
 */
export const SESSION_KEYS = { token: 'token', user: 'user_details', locals: 'local_active' } as const;

/**
 * The slots' values and the template to use, from the stored session; null without a token or with
 * a `user_details`/`local_active` the app would not accept either (the checks of
 * src/schemas/session.ts the page depends on: names are strings, each location has a positive
 * integer id and a string name).
 */
export function homeSlotsFromStorage(store: Pick<Storage, 'getItem'>): { variant: HomeVariant; slots: HomeSlots } | null {
  if (!store.getItem(SESSION_KEYS.token)) return null;
  const user = parseJson(store.getItem(SESSION_KEYS.user));
  if (!isRecord(user) || typeof user.name !== 'string' || typeof user.surname !== 'string') return null;
  const locals = parseJson(store.getItem(SESSION_KEYS.locals) ?? '[]');
  if (!Array.isArray(locals) || !locals.every(isLocal)) return null;
  const local = locals[0] as { name: string; address?: string } | undefined;
  const variant: HomeVariant = !local ? 'none' : local.address ? 'address' : 'local';
  return { variant, slots: { name: user.name, surname: user.surname, local_name: local?.name ?? '', local_address: local?.address ?? '' } };
}

/**
 * Replaces the children of `root` with Inicio's template for the stored session (`store()`, e.g.
 * `() => localStorage`, whose mere reading may throw), its slots filled as text (values never parsed as HTML). Does nothing, and returns false, without a usable session
 * or template, or when storage cannot be read (the server's skeleton then stays until the app draws).
 */
export function drawHomeFromSession(templates: Partial<HomeTemplates>, store: () => Pick<Storage, 'getItem'>, root: Element): boolean {
  let found: ReturnType<typeof homeSlotsFromStorage>;
  try {
    found = homeSlotsFromStorage(store());
  } catch {
    return false; // storage blocked by the browser
  }
  const html = found && templates[found.variant];
  if (!found || !html) return false;
  const { slots } = found;
  const template = document.createElement('template');
  template.innerHTML = html;
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (text.data.includes('⟦')) text.data = text.data.replace(SLOT, (_, key: keyof HomeSlots) => slots[key]);
  }
  root.replaceChildren(template.content);
  return true;
}

function parseJson(raw: string | null): unknown {
  if (raw == null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isLocal(value: unknown): boolean {
  return (
    isRecord(value) &&
    Number.isInteger(value.id) &&
    (value.id as number) > 0 &&
    typeof value.name === 'string' &&
    (value.address === undefined || typeof value.address === 'string')
  );
}
