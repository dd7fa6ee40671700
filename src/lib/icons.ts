import { Icons, type IconName, type IconPaths, type IconPathsLoader } from '@blueprintjs/icons';

/**
 * Icon loading of the web app (performance, issue "Foundation": ≤ 130 KB of JS up front for
 * /auth/login). Blueprint's default loader fetches the paths of *every* 16 px icon (~100 KB gzip)
 * as soon as one `<Icon icon="…">` renders. This loader fetches only the icon that is asked for,
 * each in its own tiny chunk (Blueprint docs "Loading icons", custom loader for Vite).
 *
 * The list below is every icon name the app passes as a string: the literals in src/views, the
 * menu catalogue (src/schemas/permissions.ts), the module icons of the placeholders, the toast
 * severities (src/lib/blueprint-toaster.ts) and the notification types of the server's catalogue
 * (docs/decisions.md "Notifications and realtime": info-sign, tick-circle, warning-sign, error,
 * dollar, shopping-cart, new-person, lock).
 * tests/unit/lib/icons.test.ts fails when a literal or a catalogue icon is missing. An icon not
 * listed still renders: it falls back to Blueprint's loader (and warns in the console).
 */
const PATHS = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/{16,20}px/paths/{application,archive,arrow-right,bank-account,book,box,briefcase,build,calendar,caret-down,chart,chevron-down,chevron-left,chevron-right,cog,color-fill,column-layout,construction,credit-card,cross,cube,disable,document,document-open,dollar,double-caret-vertical,drive-time,duplicate,edit,envelope,error,exchange,export,eye-off,eye-open,filter,flame,flash,floppy-disk,globe-network,grid-view,heatmap,history,home,id-number,import,inbox,info-sign,key,link,list,lock,log-in,log-out,map,menu,minus,mobile-phone,moon,more,new-person,notifications,office,people,percentage,person,phone,plus,refresh,search,settings,shield,shop,shopping-cart,sort-asc,sort-desc,th,th-list,tick-circle,timeline-bar-chart,trash,truck,user,warning-sign,zoom-to-fit}.js',
  { import: 'default', base: '/node_modules/@blueprintjs/icons/lib/esm/generated' },
);

const pathKey = (name: string, size: number) => `./${size}px/paths/${name}.js`;

/** The icon names the on-demand loader knows (for tests). */
export const ON_DEMAND_ICONS: readonly string[] = Object.keys(PATHS)
  .map((key) => /^\.\/16px\/paths\/(.+)\.js$/.exec(key)?.[1])
  .filter((name): name is string => name !== undefined)
  .sort();

/**
 * Loads the SVG paths of one icon at 16 or 20 px (the sizes Blueprint asks for).
 * Unknown names fall back to Blueprint's split-by-size loader (every icon of that size).
 */
export const loadIconPaths: IconPathsLoader = async (name: IconName, size) => {
  const load = PATHS[pathKey(name, size)];
  if (load) return load();
  console.warn(`[icons] "${name}" is not in src/lib/icons.ts: loading every ${size}px icon instead.`);
  await Icons.load(name, size, { loader: 'split-by-size' });
  return Icons.getPaths(name, size) ?? [];
};

/** Makes every `<Icon icon="name">` (and icon props) use {@link loadIconPaths}. Call once at start-up. */
export function installIconLoader(): void {
  Icons.setLoaderOptions({ loader: loadIconPaths });
}
