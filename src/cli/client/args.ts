/**
 * Arguments of the client commands: the command's own options, and every other `--name value`
 * (or `--name=value`) kept as an endpoint parameter, repeated names becoming arrays. node:util's
 * parseArgs cannot take options it does not know with a value, which is the point here.
 *
 * @example
 *   parseClientArgs(['/maps/search', 'pizza', '--limit', '5', '--out', 'x.csv'], { out: 'string' })
 *   // { positionals: ['/maps/search', 'pizza'], options: { out: 'x.csv' }, params: { limit: '5' } }
 */
export type OptionKinds = Record<string, 'string' | 'boolean'>;

export interface ClientArgs {
  positionals: string[];
  options: Record<string, string | boolean>;
  params: Record<string, string | string[]>;
}

export class UsageError extends Error {}

export function parseClientArgs(argv: string[], kinds: OptionKinds): ClientArgs {
  const out: ClientArgs = { positionals: [], options: {}, params: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { out.positionals.push(...argv.slice(i + 1)); break; }
    if (!a.startsWith('--') || a === '--') { out.positionals.push(a); continue; }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (!name) throw new UsageError(`bad option ${a}`);
    let value: string | undefined = eq < 0 ? undefined : a.slice(eq + 1);
    const kind = kinds[name];
    if (kind === 'boolean') {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      out.options[name] = true;
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
      value = argv[++i];
    }
    if (kind === 'string') out.options[name] = value;
    else {
      const prev = out.params[name];
      out.params[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
    }
  }
  return out;
}
