/**
 * Known points for the reverse-geocoding tests: city centres and landmarks on six continents with
 * the country, first-level division and IANA zone they lie in. State names are GeoNames admin1
 * names (e.g. "Mazovia", "Buenos Aires F.D."), which were checked against the region each point is
 * in; `city` is given where the expected answer is unambiguous; `county` for every US point
 * (Census county or equivalent, by the naming rule in us-counties.ts), null where the point is
 * within 1 km of a county line and so answered null (us-area.ts).
 */
export interface KnownPoint {
  name: string;
  lat: number;
  lng: number;
  country: string;
  state: string;
  tz: string;
  city?: string;
  county?: string | null;
}

export const KNOWN_POINTS: KnownPoint[] = [
  // North America: United States (exact county)
  { name: 'Manhattan, Rockefeller Center', lat: 40.7624284, lng: -73.973794, country: 'US', state: 'New York', tz: 'America/New_York', city: 'Manhattan', county: 'New York County' },
  { name: 'Brooklyn', lat: 40.6782, lng: -73.9442, country: 'US', state: 'New York', tz: 'America/New_York', city: 'Brooklyn', county: 'Kings County' },
  { name: 'Chicago Loop', lat: 41.8781, lng: -87.6298, country: 'US', state: 'Illinois', tz: 'America/Chicago', city: 'Chicago', county: 'Cook County' },
  { name: 'Los Angeles City Hall', lat: 34.0522, lng: -118.2437, country: 'US', state: 'California', tz: 'America/Los_Angeles', city: 'Los Angeles', county: 'Los Angeles County' },
  { name: 'Houston downtown', lat: 29.7604, lng: -95.3698, country: 'US', state: 'Texas', tz: 'America/Chicago', city: 'Houston', county: 'Harris County' },
  { name: 'Miami downtown', lat: 25.7617, lng: -80.1918, country: 'US', state: 'Florida', tz: 'America/New_York', city: 'Miami', county: 'Miami-Dade County' },
  { name: 'New Orleans French Quarter', lat: 29.9511, lng: -90.0715, country: 'US', state: 'Louisiana', tz: 'America/Chicago', city: 'New Orleans', county: 'Orleans Parish' },
  { name: 'Baton Rouge', lat: 30.4515, lng: -91.1871, country: 'US', state: 'Louisiana', tz: 'America/Chicago', city: 'Baton Rouge', county: null /* 1 km from the Mississippi, West Baton Rouge Parish's line */ },
  { name: 'Denver', lat: 39.7392, lng: -104.9903, country: 'US', state: 'Colorado', tz: 'America/Denver', city: 'Denver', county: 'Denver County' },
  { name: 'Phoenix', lat: 33.4484, lng: -112.074, country: 'US', state: 'Arizona', tz: 'America/Phoenix', city: 'Phoenix', county: 'Maricopa County' },
  { name: 'Seattle', lat: 47.6062, lng: -122.3321, country: 'US', state: 'Washington', tz: 'America/Los_Angeles', city: 'Seattle', county: 'King County' },
  { name: 'San Francisco City Hall', lat: 37.7793, lng: -122.4193, country: 'US', state: 'California', tz: 'America/Los_Angeles', city: 'San Francisco', county: 'City and County of San Francisco' },
  { name: 'Anchorage', lat: 61.2181, lng: -149.9003, country: 'US', state: 'Alaska', tz: 'America/Anchorage', city: 'Anchorage', county: 'Anchorage Municipality' },
  { name: 'Honolulu', lat: 21.3069, lng: -157.8583, country: 'US', state: 'Hawaii', tz: 'Pacific/Honolulu', city: 'Honolulu', county: 'Honolulu County' },
  { name: 'White House', lat: 38.8977, lng: -77.0365, country: 'US', state: 'District of Columbia', tz: 'America/New_York', city: 'Washington', county: 'District of Columbia' },
  { name: 'Richmond, Virginia (independent city)', lat: 37.5407, lng: -77.436, country: 'US', state: 'Virginia', tz: 'America/New_York', city: 'Richmond', county: 'City of Richmond' },
  { name: 'Baltimore (independent city)', lat: 39.2904, lng: -76.6122, country: 'US', state: 'Maryland', tz: 'America/New_York', city: 'Baltimore', county: 'City of Baltimore' },
  { name: 'Hartford (former Connecticut county)', lat: 41.7658, lng: -72.6734, country: 'US', state: 'Connecticut', tz: 'America/New_York', city: 'Hartford', county: null /* planning regions since 2022; the 2017 polygons have the old counties */ },
  { name: 'Detroit', lat: 42.3314, lng: -83.0458, country: 'US', state: 'Michigan', tz: 'America/Detroit', city: 'Detroit', county: 'Wayne County' },
  { name: 'Indianapolis', lat: 39.7684, lng: -86.1581, country: 'US', state: 'Indiana', tz: 'America/Indiana/Indianapolis', city: 'Indianapolis', county: 'Marion County' },
  { name: 'Boise', lat: 43.615, lng: -116.2023, country: 'US', state: 'Idaho', tz: 'America/Boise', city: 'Boise', county: 'Ada County' },
  { name: 'Fairbanks', lat: 64.84, lng: -147.72, country: 'US', state: 'Alaska', tz: 'America/Anchorage', city: 'Fairbanks', county: 'Fairbanks North Star Borough' },
  // North America: elsewhere
  { name: 'Toronto', lat: 43.6532, lng: -79.3832, country: 'CA', state: 'Ontario', tz: 'America/Toronto', city: 'Toronto' },
  { name: 'Vancouver', lat: 49.2827, lng: -123.1207, country: 'CA', state: 'British Columbia', tz: 'America/Vancouver', city: 'Vancouver' },
  { name: 'Montreal', lat: 45.5017, lng: -73.5673, country: 'CA', state: 'Quebec', tz: 'America/Toronto', city: 'Montréal' },
  { name: 'Mexico City Zócalo', lat: 19.4326, lng: -99.1332, country: 'MX', state: 'Mexico City', tz: 'America/Mexico_City', city: 'Mexico City' },
  { name: 'Guadalajara', lat: 20.6597, lng: -103.3496, country: 'MX', state: 'Jalisco', tz: 'America/Mexico_City', city: 'Guadalajara' },
  { name: 'Havana', lat: 23.1136, lng: -82.3666, country: 'CU', state: 'Havana', tz: 'America/Havana', city: 'Havana' },
  { name: 'San Juan, Puerto Rico', lat: 18.4655, lng: -66.1057, country: 'PR', state: 'San Juan', tz: 'America/Puerto_Rico', city: 'San Juan' },
  // South America
  { name: 'São Paulo Sé', lat: -23.5505, lng: -46.6333, country: 'BR', state: 'São Paulo', tz: 'America/Sao_Paulo', city: 'São Paulo' },
  { name: 'Rio de Janeiro', lat: -22.9068, lng: -43.1729, country: 'BR', state: 'Rio de Janeiro', tz: 'America/Sao_Paulo', city: 'Rio de Janeiro' },
  { name: 'Buenos Aires Obelisco', lat: -34.6037, lng: -58.3816, country: 'AR', state: 'Buenos Aires F.D.', tz: 'America/Argentina/Buenos_Aires', city: 'Buenos Aires' },
  { name: 'Santiago de Chile', lat: -33.4489, lng: -70.6693, country: 'CL', state: 'Santiago Metropolitan', tz: 'America/Santiago', city: 'Santiago' },
  { name: 'Bogotá', lat: 4.711, lng: -74.0721, country: 'CO', state: 'Bogota D.C.', tz: 'America/Bogota', city: 'Bogotá' },
  { name: 'Caracas', lat: 10.4806, lng: -66.9036, country: 'VE', state: 'Distrito Federal', tz: 'America/Caracas', city: 'Caracas' },
  { name: 'Quito', lat: -0.1807, lng: -78.4678, country: 'EC', state: 'Pichincha', tz: 'America/Guayaquil', city: 'Quito' },
  // Europe
  { name: 'Eiffel Tower', lat: 48.8584, lng: 2.2945, country: 'FR', state: 'Île-de-France', tz: 'Europe/Paris', city: 'Paris' },
  { name: 'London Trafalgar Square', lat: 51.5074, lng: -0.1278, country: 'GB', state: 'England', tz: 'Europe/London', city: 'London' },
  { name: 'Edinburgh', lat: 55.9533, lng: -3.1883, country: 'GB', state: 'Scotland', tz: 'Europe/London', city: 'Edinburgh' },
  { name: 'Berlin Mitte', lat: 52.52, lng: 13.405, country: 'DE', state: 'State of Berlin', tz: 'Europe/Berlin', city: 'Berlin' },
  { name: 'Munich Marienplatz', lat: 48.1351, lng: 11.582, country: 'DE', state: 'Bavaria', tz: 'Europe/Berlin', city: 'Munich' },
  { name: 'Madrid Puerta del Sol', lat: 40.4168, lng: -3.7038, country: 'ES', state: 'Madrid', tz: 'Europe/Madrid', city: 'Madrid' },
  { name: 'Rome', lat: 41.9028, lng: 12.4964, country: 'IT', state: 'Lazio', tz: 'Europe/Rome', city: 'Rome' },
  { name: 'Amsterdam', lat: 52.3676, lng: 4.9041, country: 'NL', state: 'North Holland', tz: 'Europe/Amsterdam', city: 'Amsterdam' },
  { name: 'Stockholm', lat: 59.3293, lng: 18.0686, country: 'SE', state: 'Stockholm', tz: 'Europe/Stockholm', city: 'Stockholm' },
  { name: 'Warsaw', lat: 52.2297, lng: 21.0122, country: 'PL', state: 'Mazovia', tz: 'Europe/Warsaw', city: 'Warsaw' },
  { name: 'Moscow Red Square', lat: 55.7558, lng: 37.6173, country: 'RU', state: 'Moscow', tz: 'Europe/Moscow', city: 'Moscow' },
  { name: 'Istanbul', lat: 41.0082, lng: 28.9784, country: 'TR', state: 'Istanbul', tz: 'Europe/Istanbul', city: 'Istanbul' },
  { name: 'Reykjavík', lat: 64.1466, lng: -21.9426, country: 'IS', state: 'Capital Region', tz: 'Atlantic/Reykjavik', city: 'Reykjavík' },
  // Africa
  { name: 'Cairo', lat: 30.0444, lng: 31.2357, country: 'EG', state: 'Cairo', tz: 'Africa/Cairo', city: 'Cairo' },
  { name: 'Lagos', lat: 6.5244, lng: 3.3792, country: 'NG', state: 'Lagos', tz: 'Africa/Lagos', city: 'Lagos' },
  { name: 'Nairobi', lat: -1.2921, lng: 36.8219, country: 'KE', state: 'Nairobi County', tz: 'Africa/Nairobi', city: 'Nairobi' },
  { name: 'Johannesburg', lat: -26.2041, lng: 28.0473, country: 'ZA', state: 'Gauteng', tz: 'Africa/Johannesburg', city: 'Johannesburg' },
  { name: 'Cape Town', lat: -33.9249, lng: 18.4241, country: 'ZA', state: 'Western Cape', tz: 'Africa/Johannesburg', city: 'Cape Town' },
  { name: 'Casablanca', lat: 33.5731, lng: -7.5898, country: 'MA', state: 'Casablanca-Settat', tz: 'Africa/Casablanca', city: 'Casablanca' },
  { name: 'Addis Ababa', lat: 9.03, lng: 38.74, country: 'ET', state: 'Addis Ababa', tz: 'Africa/Addis_Ababa', city: 'Addis Ababa' },
  { name: 'Kinshasa', lat: -4.4419, lng: 15.2663, country: 'CD', state: 'Kinshasa', tz: 'Africa/Kinshasa', city: 'Kinshasa' },
  { name: 'Dakar', lat: 14.7167, lng: -17.4677, country: 'SN', state: 'Dakar', tz: 'Africa/Dakar', city: 'Dakar' },
  // Asia
  { name: 'Tokyo Shinjuku', lat: 35.6762, lng: 139.6503, country: 'JP', state: 'Tokyo', tz: 'Asia/Tokyo', city: 'Tokyo' },
  { name: 'Osaka', lat: 34.6937, lng: 135.5023, country: 'JP', state: 'Osaka', tz: 'Asia/Tokyo', city: 'Osaka' },
  { name: 'Beijing Tiananmen', lat: 39.9042, lng: 116.4074, country: 'CN', state: 'Beijing', tz: 'Asia/Shanghai', city: 'Beijing' },
  { name: 'Shanghai', lat: 31.2304, lng: 121.4737, country: 'CN', state: 'Shanghai', tz: 'Asia/Shanghai', city: 'Shanghai' },
  { name: 'Mumbai', lat: 19.076, lng: 72.8777, country: 'IN', state: 'Maharashtra', tz: 'Asia/Kolkata', city: 'Mumbai' },
  { name: 'Delhi', lat: 28.6139, lng: 77.209, country: 'IN', state: 'Delhi', tz: 'Asia/Kolkata', city: 'Delhi' },
  { name: 'Seoul', lat: 37.5665, lng: 126.978, country: 'KR', state: 'Seoul', tz: 'Asia/Seoul', city: 'Seoul' },
  { name: 'Bangkok', lat: 13.7563, lng: 100.5018, country: 'TH', state: 'Bangkok', tz: 'Asia/Bangkok', city: 'Bangkok' },
  { name: 'Jakarta', lat: -6.2088, lng: 106.8456, country: 'ID', state: 'Jakarta', tz: 'Asia/Jakarta', city: 'Jakarta' },
  { name: 'Dubai', lat: 25.2048, lng: 55.2708, country: 'AE', state: 'Dubai', tz: 'Asia/Dubai', city: 'Dubai' },
  { name: 'Tehran', lat: 35.6892, lng: 51.389, country: 'IR', state: 'Tehran', tz: 'Asia/Tehran', city: 'Tehran' },
  { name: 'Kathmandu', lat: 27.7172, lng: 85.324, country: 'NP', state: 'Bagmati Province', tz: 'Asia/Kathmandu', city: 'Kathmandu' },
  // Oceania
  { name: 'Sydney Opera House', lat: -33.8568, lng: 151.2153, country: 'AU', state: 'New South Wales', tz: 'Australia/Sydney', city: 'Sydney' },
  { name: 'Melbourne', lat: -37.8136, lng: 144.9631, country: 'AU', state: 'Victoria', tz: 'Australia/Melbourne', city: 'Melbourne' },
  { name: 'Perth', lat: -31.9505, lng: 115.8605, country: 'AU', state: 'Western Australia', tz: 'Australia/Perth', city: 'Perth' },
  { name: 'Brisbane', lat: -27.4698, lng: 153.0251, country: 'AU', state: 'Queensland', tz: 'Australia/Brisbane', city: 'Brisbane' },
  { name: 'Auckland', lat: -36.8485, lng: 174.7633, country: 'NZ', state: 'Auckland', tz: 'Pacific/Auckland', city: 'Auckland' },
  { name: 'Wellington', lat: -41.2865, lng: 174.7762, country: 'NZ', state: 'Wellington Region', tz: 'Pacific/Auckland', city: 'Wellington' },
  { name: 'Suva', lat: -18.1248, lng: 178.4501, country: 'FJ', state: 'Central', tz: 'Pacific/Fiji', city: 'Suva' },
  { name: 'Port Moresby', lat: -9.4438, lng: 147.1803, country: 'PG', state: 'National Capital', tz: 'Pacific/Port_Moresby', city: 'Port Moresby' },
];
