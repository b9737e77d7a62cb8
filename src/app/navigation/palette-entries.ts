import type { GalleryGroup } from '../../home/visible-menu.ts';

/** A page the palette jumps to. */
export interface PalettePage {
  key: string;
  /** Locale keys: the page and the group it is in. */
  label: string;
  group: string;
  path: string;
  icon: string;
  /** The entity whose records the palette searches on this page, if any. */
  entity: string | null;
}

/** Folds case and accents, so "analitica" finds "Analítica". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Every page the user may open from the menu, plus the account pages every signed-in user has. */
export function palettePages(groups: readonly GalleryGroup[], accountPages: readonly PalettePage[]): PalettePage[] {
  const pages = groups.flatMap((group) => group.tiles.map((tile) => ({ key: tile.key, label: tile.label, group: group.label, path: tile.path, icon: tile.icon, entity: tile.entity })));
  return [...pages, ...accountPages.filter((page) => !pages.some((existing) => existing.path === page.path))];
}

/** The pages whose name or group contains every word typed (translated, accents folded). */
export function matchPages(pages: readonly PalettePage[], query: string, translate: (key: string) => string): PalettePage[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...pages];
  return pages.filter((page) => {
    const text = fold(`${translate(page.label)} ${translate(page.group)}`);
    return words.every((word) => text.includes(word));
  });
}

/** Fields a record is named by, in order of preference, for a search result's title. */
const TITLE_FIELDS = ['name', 'username', 'title', 'key', 'question', 'email', 'message'];
/** A result title longer than this is cut (a long question or message). */
const MAX_TITLE = 80;

/** A record's title in the palette: its first naming field, else its id. */
export function recordTitle(record: Record<string, unknown>): string {
  for (const field of TITLE_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim()) return value.length > MAX_TITLE ? `${value.slice(0, MAX_TITLE - 1)}…` : value;
  }
  return String(record._id ?? record.id ?? '');
}

/** The shortest query the palette searches records with (one letter would match nearly all). */
export const MIN_RECORD_QUERY = 2;
/** Records shown per entity. */
export const RECORDS_PER_ENTITY = 5;
