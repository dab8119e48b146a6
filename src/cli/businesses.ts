/**
 * `trawl businesses import|export` (docs/businesses.md). Import: an OSM extract into the shared pool,
 * or a file of our own records (an export) into the shared pool or `--account`'s rows. Export: the
 * businesses a search selects, as `--account` sees them (without it: the shared pool), to a task file.
 * Filters: `--filters` as the JSON `filters` of POST /businesses (same checks, same messages), and the
 * main ones as flags (`--country`, `--types`, `--cities`, `--name`, `--rating`), which take precedence.
 * Progress on stderr when it is a terminal; the summary as JSON on stdout.
 */
import { extname } from 'node:path';
import type { Store } from '../store/contract.ts';
import { OPEN_DATA } from '../store/businesses/contract.ts';
import { isExportFormat, type ExportFormat } from '../delivery/export/index.ts';

type Values = Record<string, string | boolean | undefined>;
interface Io { out(v: unknown): void; fail(message: string, code?: number): never }

const USAGE = 'businesses import FILE [--country CC] [--account ID] | businesses export --out FILE [--format xlsx|csv|json|parquet] [--account ID] [--filters JSON] [--country CC] [--types a,b] [--cities a,b] [--name TEXT] [--rating EXPR] [--escape-formulas all|none]';

export async function businessesCommand(store: Store, sub: string | undefined, positionals: string[], values: Values, io: Io): Promise<void> {
  const tty = process.stderr.isTTY;
  const progress = (text: string) => { if (tty) process.stderr.write(`\r${text}`); };
  const account = values.account as string | undefined;
  if (account !== undefined && !(await store.getAccount(account))) io.fail(`--account ${account}: no such account`);
  const owner = account ?? OPEN_DATA;
  if (sub === 'import' && positionals[0]) {
    const file = positionals[0];
    const { formatOf } = await import('../businesses/osm-read.ts');
    if (formatOf(file)) {
      const country = values.country as string | undefined;
      if (country !== undefined && !/^[A-Za-z]{2}$/.test(country)) io.fail('--country must be a two-letter country code');
      if (account !== undefined) io.fail('--account: an OSM extract is open data and goes to the shared pool');
      const { importOsm } = await import('../businesses/osm-import.ts');
      const summary = await importOsm(store, file, {
        country, onProgress: (p) => progress(`${p.objects} objects read, ${p.businesses} businesses (${p.added} new)`),
      }).catch((e: Error) => io.fail(e.message, 1));
      if (tty) process.stderr.write('\n');
      return io.out({ ...summary, attribution: '© OpenStreetMap contributors (ODbL 1.0)' });
    }
    const { importRecords } = await import('../businesses/records-import.ts');
    const summary = await importRecords(store, file, { owner, onProgress: (p) => progress(`${p.rows} records read (${p.added} new, ${p.updated} updated)`) })
      .catch((e: Error) => { if (tty) process.stderr.write('\n'); return io.fail(e.message, 1); });
    if (tty) process.stderr.write('\n');
    return io.out(summary);
  }
  if (sub === 'export' && typeof values.out === 'string') {
    const file = values.out;
    const format = (values.format as string | undefined)?.toLowerCase() ?? extname(file).slice(1).toLowerCase();
    if (!isExportFormat(format)) io.fail(`--format (or the --out file's extension) must be one of xlsx, csv, json, parquet; got ${JSON.stringify(format)}`);
    const escaping = values['escape-formulas'];
    if (escaping !== undefined && escaping !== 'all' && escaping !== 'none') io.fail(`--escape-formulas must be all (numbers and phones too) or none; without it every formula-looking text but plain numbers and phones is escaped (docs/exports.md); got ${JSON.stringify(escaping)}`);
    const q = await selection(owner, values).catch((e: Error) => io.fail(e.message));
    const { exportRecords } = await import('../businesses/records-export.ts');
    const summary = await exportRecords(store, q, format as ExportFormat, file, (n) => progress(`${n} businesses read`), escaping === undefined ? undefined : escaping === 'all')
      .catch((e: Error) => io.fail(e.message, 1));
    if (tty) process.stderr.write('\n');
    return io.out(summary);
  }
  return io.fail(USAGE);
}

/** The filters of the flags, checked as POST /businesses checks its body. */
async function selection(accountId: string, values: Values) {
  const { checkBody } = await import('../app/body.ts');
  const { businessesBody } = await import('../contract/account.ts');
  const { queryOf } = await import('../app/business-query.ts');
  let filters: Record<string, unknown> = {};
  if (typeof values.filters === 'string') {
    try { filters = JSON.parse(values.filters); } catch (e) { throw new Error(`--filters is not JSON: ${(e as Error).message}`); }
  }
  const list = (v: unknown) => (typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined);
  const flags: Record<string, unknown> = { country_code: values.country, types: list(values.types), cities: list(values.cities), name: values.name, rating: values.rating };
  for (const [k, v] of Object.entries(flags)) if (v !== undefined) filters[k] = v;
  try {
    checkBody(businessesBody, { filters });
    return queryOf(accountId, filters);
  } catch (e) {
    // The API's 422 text, without the status line a terminal does not need.
    throw new Error(String((e as Error).message).replace(/^422 Unprocessable Entity:?\s*/, ''));
  }
}
