/**
 * Full 10-digit Open Location Code ("plus code") of a point, by the integer method of the OLC
 * specification and its current reference implementations: each coordinate becomes an integer at
 * the finest precision (1/25,000,000° of latitude, 1/8,192,000° of longitude), and the pair digits
 * are taken from those integers.
 *
 * Why not `open-location-code`'s encode: that package (1.0.3) predates the integer method and
 * subtracts floating-point place values, so a coordinate typed with few decimals, which very often
 * lies exactly on a cell edge (every multiple of 0.000125°), lands in the neighbouring cell. On
 * 20,000 seeded coordinates with 4 decimals it differed from the integer method on 3,811 (19%);
 * on random doubles, which are never on an edge, the two agree everywhere (see plus-code.test.ts).
 * The conversion rounds at 1e-6 of the finest unit before the floor, so an edge coordinate lands
 * in the cell that its decimal text names (as the spec's test data computes it), not in whichever
 * cell binary rounding happens to pick.
 */
const ALPHABET = '23456789CFGHJMPQRVWX';
const LAT_PRECISION = 25_000_000;
const LNG_PRECISION = 8_192_000;
/** Finest units per 10-digit cell: 20³·5⁵/8000 and 20³·4⁵/8000. */
const LAT_UNITS_PER_CELL = 3125;
const LNG_UNITS_PER_CELL = 1024;
const LAT_SPAN = 180 * LAT_PRECISION;
const LNG_SPAN = 360 * LNG_PRECISION;

function toUnits(degrees: number, precision: number): number {
  return Math.floor(Math.round(degrees * precision * 1e6) / 1e6);
}

/**
 * Plus code of a point; latitude is clipped to ±90, longitude wrapped into -180..180.
 *
 * @example plusCode(40.7624284, -73.973794) // '87G8Q26G+XF'
 */
export function plusCode(lat: number, lng: number): string {
  let latUnits = toUnits(lat, LAT_PRECISION) + 90 * LAT_PRECISION;
  // Latitude 90 is moved into the top cell so the code can be decoded.
  if (latUnits < 0) latUnits = 0;
  else if (latUnits >= LAT_SPAN) latUnits = LAT_SPAN - 1;
  let lngUnits = (toUnits(lng, LNG_PRECISION) + 180 * LNG_PRECISION) % LNG_SPAN;
  if (lngUnits < 0) lngUnits += LNG_SPAN;
  let latCell = Math.floor(latUnits / LAT_UNITS_PER_CELL);
  let lngCell = Math.floor(lngUnits / LNG_UNITS_PER_CELL);
  const chars = new Array<string>(11);
  // Five base-20 digits each, least significant last; pair i sits at 2i (lat) and 2i+1 (lng),
  // with the '+' after the eighth digit.
  for (let i = 4; i >= 0; i--) {
    const at = i < 4 ? 2 * i : 9;
    chars[at] = ALPHABET[latCell % 20];
    chars[at + 1] = ALPHABET[lngCell % 20];
    latCell = Math.floor(latCell / 20);
    lngCell = Math.floor(lngCell / 20);
  }
  chars[8] = '+';
  return chars.join('');
}
