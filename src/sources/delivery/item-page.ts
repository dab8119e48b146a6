/**
 * The item page answer (`itemPage`): one item, its header (`itemHeader`: id, name, price as minor
 * units with `currency` and `decimalPlaces`, `displayString`, `menuId`), and its choices
 * (`optionLists[].options[]`: each with its surcharge in minor units). The item is the header, read by
 * its key rather than by shape, so the page's other branches (`presetCarousels`, recommendations,
 * footers) never become items; its choices become the record's `options`, never records.
 *
 * @example splitItemPages({ itemPage: { itemHeader: { id: '1', name: 'Burrito', unitAmount: 1149 }, optionLists: [] } }).items[0].node.name // 'Burrito'
 */
import { int, isAdNode, obj, str, type Obj } from '../_kit/values.ts';
import { amountOf } from '../_kit/money.ts';
import { itemIdOf, type FoundItem } from './menu.ts';
import type { MenuItemRecord } from './record.ts';

export type ItemOption = NonNullable<MenuItemRecord['options']>[number];

/** An option's surcharge in the currency unit: minor units scaled by its decimals, else its text ("+$2.50"); 0 for a free choice. */
function surchargeOf(o: Obj): number | null {
  const minor = int(o.unitAmount);
  if (minor !== null) return minor / 10 ** (int(o.decimalPlaces) ?? 2);
  const text = str(o.displayString) ?? str(o.displayPrice);
  return text ? amountOf(text) : null;
}

/** The choices of the page, one entry per option, in list order. */
export function itemOptions(page: Obj): ItemOption[] {
  const out: ItemOption[] = [];
  for (const l of Array.isArray(page.optionLists) ? page.optionLists : []) {
    const list = obj(l);
    // A promoted entry among the choices is an ad, not a choice of the item.
    if (!list || isAdNode(list)) continue;
    const required = typeof list.isOptional === 'boolean' ? !list.isOptional : int(list.minNumOptions) !== null ? int(list.minNumOptions)! > 0 : null;
    for (const x of Array.isArray(list.options) ? list.options : []) {
      const o = obj(x);
      const name = o ? str(o.name) : null;
      if (!o || !name || isAdNode(o)) continue;
      out.push({ list: str(list.name), name, price: surchargeOf(o), required });
    }
  }
  return out;
}

/**
 * The item pages of an answer's `data` (or of a batch of answers) apart from the rest: each page's
 * item with its options, and the answers that are no item page (a feed in the same batch), which are
 * read by shape as before.
 */
export function splitItemPages(data: unknown): { items: FoundItem[]; options: Map<string, ItemOption[]>; rest: unknown[] } {
  const items: FoundItem[] = [];
  const options = new Map<string, ItemOption[]>();
  const rest: unknown[] = [];
  for (const d of Array.isArray(data) ? data : [data]) {
    const page = obj(obj(d)?.itemPage);
    if (!page) { rest.push(d); continue; }
    // An item page whose header does not read gives no item (the answer is then refused): its
    // carousels' items are never taken for the page's own.
    const header = obj(page.itemHeader);
    const id = header && str(header.name) ? itemIdOf(header) : null;
    if (!header || id === null) continue;
    items.push({ node: header, category: null, popular: false });
    options.set(id, itemOptions(page));
  }
  return { items, options, rest };
}
