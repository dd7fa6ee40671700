import { Icons, type IconName, type IconPaths, type IconPathsLoader } from '@blueprintjs/icons';

/**
 * The table behind src/lib/icons.ts: one lazily imported chunk per icon and size, for the icon names
 * listed there (see its comment). Kept in its own chunk, loaded with the first icon, so the ~340
 * entries of the table (3 KB gzip) are not part of the login page's entry chunk (issue "Production
 * grade", docs/decisions.md "Compression and the login budget").
 */
const PATHS = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/{16,20}px/paths/{add,application,calculator,archive,chat,arrow-left,arrow-right,bank-account,book,bookmark,box,briefcase,build,calendar,caret-down,chart,chevron-down,chevron-left,chevron-right,cog,color-fill,column-layout,construction,credit-card,cross,cube,disable,document,document-open,dollar,double-caret-vertical,download,drive-time,duplicate,edit,envelope,error,exchange,export,eye-off,eye-open,filter,flame,flash,floppy-disk,globe-network,grid-view,heatmap,history,home,id-number,import,inbox,info-sign,key,link,list,lock,log-in,log-out,map,menu,merge-columns,minus,mobile-phone,moon,more,new-person,notifications,office,people,percentage,person,phone,play,plus,refresh,reset,search,settings,shield,send-message,shop,shopping-cart,sort-asc,sort-desc,th,th-list,tick,tick-circle,time,timeline-bar-chart,trash,truck,undo,user,warning-sign,zoom-to-fit,bold,italic,underline,numbered-list,properties,align-left,align-center,align-right,align-justify,header,header-one,header-two,header-three,paragraph,add-row-bottom,remove-row-bottom,add-column-right,remove-column-right,page-layout,variable,endorsed,paperclip,take-action}.js',
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
export const loadIconPathsNow: IconPathsLoader = async (name: IconName, size) => {
  const load = PATHS[pathKey(name, size)];
  if (load) return load();
  console.warn(`[icons] "${name}" is not in src/lib/icons.ts: loading every ${size}px icon instead.`);
  await Icons.load(name, size, { loader: 'split-by-size' });
  return Icons.getPaths(name, size) ?? [];
};
