/**
 * robots.txt, as far as politeness is cheap: the `User-agent: *` group's Allow/Disallow prefixes,
 * longest match wins (RFC 9309), `*` and `$` patterns. One fetch per site, before its extra pages.
 *
 * @example robotsAllows(parseRobots('User-agent: *\nDisallow: /private'), '/private/x') // false
 */
export interface Robots { rules: { allow: boolean; pattern: RegExp; length: number }[] }

export function parseRobots(text: string): Robots {
  const rules: Robots['rules'] = [];
  let inStar = false;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([a-z-]+)\s*:\s*(.*)$/i.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    const value = m[2].trim();
    if (key === 'user-agent') {
      inStar = lastWasAgent ? inStar || value === '*' : value === '*';
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!inStar || (key !== 'allow' && key !== 'disallow') || !value) continue;
    const re = value.replace(/[.+?^{}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    rules.push({ allow: key === 'allow', pattern: new RegExp(`^${re.endsWith('\\$') ? `${re.slice(0, -2)}$` : re}`), length: value.length });
  }
  return { rules };
}

export function robotsAllows(r: Robots, path: string): boolean {
  let best: Robots['rules'][number] | null = null;
  for (const rule of r.rules) if (rule.pattern.test(path) && (!best || rule.length > best.length || (rule.length === best.length && rule.allow))) best = rule;
  return best ? best.allow : true;
}
