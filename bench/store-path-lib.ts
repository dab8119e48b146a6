/**
 * What bench/store-path.ts (SQLite) and bench/pg-store-path.ts (PostgreSQL) share: the records a map
 * search's query stores, and the loop that runs the queries C at a time.
 *
 * @example await runConcurrently(3000, 16, one)
 */

/** Records shaped and sized like a map search's 20 places (51.6 KB; fixed seed: every run stores the same bytes). */
export function mapSearchRecordsJson(): string {
  let seed = 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const words = 'coffee shop espresso latte street avenue open closed rating review place cafe bakery roast bean city park north south east west'.split(' ');
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  return JSON.stringify(Array.from({ length: 20 }, (_, i) => ({
    place_id: `ChIJ${Math.floor(rnd() * 1e12).toString(36)}${i}`, name: text(3), address: text(6), phone: `+1 ${Math.floor(rnd() * 1e10)}`,
    rating: +(rnd() * 5).toFixed(1), reviews: Math.floor(rnd() * 5000), latitude: rnd() * 90, longitude: rnd() * 180,
    hours: Array.from({ length: 7 }, () => text(4)), about: text(250),
    photos: Array.from({ length: 8 }, () => `https://lh5.googleusercontent.com/p/${Math.floor(rnd() * 1e15).toString(36)}${Math.floor(rnd() * 1e15).toString(36)}`),
  })));
}

/** Runs `one` n times, c at a time. */
export async function runConcurrently(n: number, c: number, one: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: c }, async () => { while (next++ < n) await one(); }));
}
