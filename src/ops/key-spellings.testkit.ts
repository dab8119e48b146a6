/**
 * Every spelling of a trawl key that a client, a proxy or a browser can produce (issues 28 and 39),
 * for the log tests: the key-mask unit test and the HTTP test of request and worker lines.
 *
 * @example spellingsOf('trw_abc')[5] // 'trw%255Fabc'
 */
/** Every spelling of issue 28 and 39 a client or a proxy can produce, for one key. */
export function spellingsOf(key: string): string[] {
  const rest = key.slice(4);
  const pct = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  return [
    key, key.toUpperCase().slice(0, 4) + rest, encodeURIComponent(key), `trw%5F${rest}`, `%74rw_${rest}`,
    `trw%255F${rest}`, `trw%255f${rest}`, `%2574%2572%2577%255F${rest}`, `trw%25255F${rest}`, pct(key), pct(pct(key)),
    `trw&#95;${rest}`, `trw&#x5f;${rest}`, `trw&#X5F;${rest}`, `trw&lowbar;${rest}`, `trw&UnderBar;${rest}`, `trw&amp;#95;${rest}`,
    `trw%26%2395%3B${rest}`, `&#116;&#114;&#119;&#95;${rest}`, rest, encodeURIComponent(encodeURIComponent(rest)),
  ];
}

