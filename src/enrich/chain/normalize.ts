/**
 * Name normalisation shared by the brand index and the places matched against it: case, accents,
 * `&`/`+` → `and`, apostrophes dropped, every other non-letter/digit a space, a leading `the` dropped.
 *
 * @example normalizeName("McDonald's") // 'mcdonalds'
 * @example normalizeName('Café & Bar Ünal') // 'cafe and bar unal'
 */
export function normalizeName(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
    .replace(/[’'`´]/g, '').replace(/\s*[&+]\s*/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ').trim().replace(/^the /, '');
}

/**
 * The spellings of a place name worth looking up: the whole name, and the part before a branch
 * suffix (`Starbucks - Syntagma`, `Lidl | Athens`, `IKEA (Kifisias)`, `Zara, Ermou`).
 *
 * @example nameVariants('Starbucks - Syntagma Square') // ['starbucks syntagma square', 'starbucks']
 */
export function nameVariants(name: string): string[] {
  const out = [normalizeName(name)];
  const head = name.split(/\s[-–—|:]\s|\s*[(,]/)[0];
  if (head && head !== name) out.push(normalizeName(head));
  return [...new Set(out.filter(Boolean))];
}
