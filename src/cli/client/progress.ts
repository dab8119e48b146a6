/**
 * Progress of a request on stderr: a bar redrawn in place on a terminal (queries done / total,
 * records, elapsed, ETA), or plain lines when stderr is a file or a pipe (at most one a second,
 * and only when something moved), so logs stay readable.
 *
 * @example
 *   const p = progressReporter(process.stderr);
 *   p.update({ queries_total: 200, queries_done: 50, records: 48, elapsedMs: 4000 });
 *   p.done();
 */
import type { Progress } from '../../../clients/typescript/src/client.ts';

const clock = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
};

/** One line of progress; the ETA assumes the remaining queries go at the pace of the done ones. */
export function progressLine(p: Progress, width = 0): string {
  const total = Math.max(p.queries_total, 1);
  const pct = Math.floor((100 * p.queries_done) / total);
  const eta = p.queries_done > 0 && p.queries_done < p.queries_total ? ` · ETA ${clock((p.elapsedMs / p.queries_done) * (p.queries_total - p.queries_done))}` : '';
  // An area query's covering: views searched (or split unsearched) of those planned so far.
  const views = p.area ? ` · ${p.area.views_done}/${p.area.views_planned} views (${p.area.views_saturated} saturated)` : '';
  const text = `${p.queries_done}/${p.queries_total} queries${views} · ${p.records} records · ${clock(p.elapsedMs)} elapsed${eta}`;
  if (!width) return `${pct}% ${text}`;
  const barWidth = Math.max(10, Math.min(40, width - text.length - 9));
  const filled = Math.round((barWidth * p.queries_done) / total);
  return `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${String(pct).padStart(3)}% ${text}`;
}

export function progressReporter(stream: NodeJS.WriteStream, o: { quiet?: boolean } = {}) {
  const tty = !!stream.isTTY;
  let last = '';
  let lastAt = 0;
  let drawn = false;
  return {
    update(p: Progress) {
      if (o.quiet) return;
      if (tty) {
        const line = progressLine(p, stream.columns || 80); // a terminal that reports no size gets 80 columns
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
        return;
      }
      const key = `${p.queries_done}/${p.records}/${p.area?.views_done ?? ''}`;
      const now = Date.now();
      if (key === last || (now - lastAt < 1_000 && p.queries_done < p.queries_total)) return;
      last = key;
      lastAt = now;
      stream.write(`${progressLine(p)}\n`);
    },
    /** Ends the bar's line, so what follows starts on its own. */
    done() {
      if (tty && drawn) stream.write('\n');
      drawn = false;
    },
  };
}
