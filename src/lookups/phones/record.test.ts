import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/max';
import { phoneRecord, type LineType } from './record.ts';

// Numbers written to match each country's ranges in libphonenumber's metadata (several are
// libphonenumber's own example numbers); the expected type is what the metadata assigns.
const SAMPLES: Array<[number: string, country: string, type: LineType]> = [
  ['+1 212-736-5000', 'US', 'fixed_line_or_mobile'],
  ['+1 800 234 5678', 'US', 'toll_free'],
  ['+1 900 234 5678', 'US', 'premium_rate'],
  ['+1 500 234 5678', 'US', 'personal_number'],
  ['+44 20 1234 5678', 'GB', 'fixed_line'],
  ['+44 7400 123456', 'GB', 'mobile'],
  ['+44 7640 123456', 'GB', 'pager'],
  ['+44 800 123 4567', 'GB', 'toll_free'],
  ['+44 901 234 5678', 'GB', 'premium_rate'],
  ['+44 70 1234 5678', 'GB', 'personal_number'],
  ['+44 56 1234 5678', 'GB', 'voip'],
  ['+44 55 1234 5678', 'GB', 'uan'],
  ['+49 30 123456', 'DE', 'fixed_line'],
  ['+49 1512 3456789', 'DE', 'mobile'],
  ['+49 16412345', 'DE', 'pager'],
  ['+49 800 1234567890', 'DE', 'toll_free'],
  ['+49 900 1234567', 'DE', 'premium_rate'],
  ['+49 180 12345', 'DE', 'shared_cost'],
  ['+49 700 12345678', 'DE', 'personal_number'],
  ['+49 18500 123456', 'DE', 'uan'],
  ['+49 177 991234567', 'DE', 'voicemail'],
  ['+33 1 23 45 67 89', 'FR', 'fixed_line'],
  ['+33 6 12 34 56 78', 'FR', 'mobile'],
  ['+33 8 01 23 45 67', 'FR', 'toll_free'],
  ['+33 8 91 12 34 56', 'FR', 'premium_rate'],
  ['+33 8 84 01 23 45', 'FR', 'shared_cost'],
  ['+33 9 12 34 56 78', 'FR', 'voip'],
  ['+33 8 06 12 34 56', 'FR', 'uan'],
  ['+61 2 1234 5678', 'AU', 'fixed_line'],
  ['+61 412 345 678', 'AU', 'mobile'],
  ['+61 1800 123 456', 'AU', 'toll_free'],
  ['+61 1900 123 456', 'AU', 'premium_rate'],
  ['+61 1300 123 456', 'AU', 'shared_cost'],
  ['+39 06 1234 5678', 'IT', 'fixed_line'],
  ['+39 312 345 6789', 'IT', 'mobile'],
  ['+39 848 123 456', 'IT', 'shared_cost'],
  ['+39 33101234501', 'IT', 'voicemail'],
  ['+41 21 234 56 78', 'CH', 'fixed_line'],
  ['+41 78 123 45 67', 'CH', 'mobile'],
  ['+41 74 012 34 56', 'CH', 'pager'],
  ['+41 878 123 456', 'CH', 'personal_number'],
  ['+41 58 812 34 56', 'CH', 'uan'],
  ['+7 495 123-45-67', 'RU', 'fixed_line'],
  ['+7 912 345-67-89', 'RU', 'mobile'],
  ['+7 800 123-45-67', 'RU', 'toll_free'],
  ['+91 98765 43210', 'IN', 'mobile'],
  ['+91 87654 32100', 'IN', 'fixed_line_or_mobile'],
  ['+86 10 1234 5678', 'CN', 'fixed_line'],
  ['+86 131 2345 6789', 'CN', 'mobile'],
  ['+81 3-1234-5678', 'JP', 'fixed_line'],
  ['+81 90-1234-5678', 'JP', 'mobile'],
  ['+55 11 96123-4567', 'BR', 'mobile'],
  ['+55 11 2345-6789', 'BR', 'fixed_line'],
  ['+52 55 1234 5678', 'MX', 'fixed_line_or_mobile'],
  ['+34 912 34 56 78', 'ES', 'fixed_line'],
  ['+34 901 12 34 56', 'ES', 'shared_cost'],
  ['+27 21 123 4567', 'ZA', 'fixed_line'],
  ['+234 901 234 5678', 'NG', 'mobile'],
  ['+65 9123 4567', 'SG', 'mobile'],
  ['+31 6 12345678', 'NL', 'mobile'],
  ['+31 6 61234567', 'NL', 'pager'],
  ['+353 76 123 4567', 'IE', 'voip'],
  ['+353 818 123 456', 'IE', 'uan'],
  ['+972 77 212 3456', 'IL', 'voip'],
];

test('numbers of many countries get country, type, formats and a valid status', () => {
  const countries = new Set<string>();
  for (const [number, country, type] of SAMPLES) {
    const rec = phoneRecord(number);
    assert.equal(rec.status, 'VALID', number);
    assert.equal(rec.valid, true, number);
    assert.equal(rec.possible, true, number);
    assert.equal(rec.country_code, country, number);
    assert.equal(rec.line_type, type, number);
    assert.equal(rec.calling_code, getCountryCallingCode(country as CountryCode), number);
    assert.equal(rec.e164, '+' + number.replace(/\D/g, ''), number);
    assert.ok(rec.international?.startsWith('+' + rec.calling_code + ' '), number);
    assert.equal(rec.query, number);
    countries.add(country);
  }
  assert.ok(countries.size >= 15, `only ${countries.size} countries`);
});

test('every line type the metadata knows is reached by the samples', () => {
  const all: LineType[] = [
    'mobile',
    'fixed_line',
    'fixed_line_or_mobile',
    'voip',
    'toll_free',
    'premium_rate',
    'shared_cost',
    'personal_number',
    'pager',
    'uan',
    'voicemail',
  ];
  const seen = new Set(SAMPLES.map((s) => s[2]));
  for (const t of all) assert.ok(seen.has(t), `no sample of ${t}`);
});

test("libphonenumber's shipped mobile example of every region is valid and mobile-capable", () => {
  const require = createRequire(import.meta.url);
  const examples = require('libphonenumber-js/examples.mobile.json') as Record<string, string>;
  const entries = Object.entries(examples);
  assert.ok(entries.length > 200);
  for (const [region, national] of entries) {
    const rec = phoneRecord(national, { region });
    assert.equal(rec.valid, true, `${region} ${national}`);
    assert.ok(['mobile', 'fixed_line_or_mobile'].includes(rec.line_type), `${region} ${national} ${rec.line_type}`);
    assert.equal(rec.calling_code, getCountryCallingCode(region as CountryCode));
  }
});

test('geocoded area, carrier and time zones come from the prefix data', () => {
  const ny = phoneRecord('+1 212-736-5000');
  assert.equal(ny.region, 'New York, NY');
  assert.deepEqual(ny.time_zones, ['America/New_York']);
  assert.equal(ny.carrier, null);

  const berlin = phoneRecord('+49 30 123456');
  assert.equal(berlin.region, 'Berlin');
  assert.deepEqual(berlin.time_zones, ['Europe/Berlin']);
  assert.equal(berlin.carrier_type, 'landline');

  const tmobile = phoneRecord('+49 1512 3456789');
  assert.equal(tmobile.carrier, 'T-Mobile');
  assert.equal(tmobile.carrier_name, 'T-Mobile');
  assert.equal(tmobile.carrier_type, 'mobile');
  assert.equal(tmobile.region, null, 'German mobile ranges are not geographic');

  assert.equal(phoneRecord('+7 495 123-45-67').region, 'Moscow');
  assert.equal(phoneRecord('+39 06 1234 5678').region, 'Rome');
  assert.equal(phoneRecord('+91 98765 43210').carrier, 'Airtel');
  assert.equal(phoneRecord('+86 199 1234 5678').carrier, 'China Telecom');
  // China geocodes mobile ranges too (libphonenumber's GEO_MOBILE_COUNTRIES).
  assert.ok(phoneRecord('+86 131 2345 6789').region);
});

test('non-geographic numbers get no area and the zones of their whole country code', () => {
  const tollFree = phoneRecord('+1 800 234 5678');
  assert.equal(tollFree.region, null);
  assert.equal(tollFree.carrier, null);
  assert.ok(tollFree.time_zones.includes('America/New_York'));
  assert.ok(tollFree.time_zones.includes('America/Los_Angeles'));
  const intl = phoneRecord('+800 1234 5678');
  assert.equal(intl.valid, true);
  assert.equal(intl.country_code, null);
  assert.equal(intl.line_type, 'toll_free');
});

test('area names follow the language, falling back to English', () => {
  assert.equal(phoneRecord('+49 89 1234567', { language: 'de' }).region, 'München');
  assert.equal(phoneRecord('+49 89 1234567', { language: 'en' }).region, 'Munich');
  assert.equal(phoneRecord('+49 89 1234567').region, 'Munich');
  // No Welsh data: English.
  assert.equal(phoneRecord('+49 89 1234567', { language: 'cy' }).region, 'Munich');
  assert.equal(phoneRecord('+49 89 1234567', { language: 'xx-bork!' }).region, 'Munich');
});

test('national numbers are read with the region, and refused without one', () => {
  const de = phoneRecord('030 123456', { region: 'de' });
  assert.equal(de.status, 'VALID');
  assert.equal(de.e164, '+4930123456');
  assert.match(de.status_details, /DE/);
  assert.equal(phoneRecord('(212) 736-5000', { region: 'US' }).e164, '+12127365000');
  assert.equal(phoneRecord('07400 123456', { region: 'UK' }).country_code, 'GB');

  const none = phoneRecord('030 123456');
  assert.equal(none.status, 'REGION_REQUIRED');
  assert.equal(none.valid, false);
  assert.equal(none.e164, null);
  assert.match(none.status_details, /no region/);

  const bogus = phoneRecord('030 123456', { region: 'ZZ' });
  assert.equal(bogus.status, 'REGION_REQUIRED');
  assert.match(bogus.status_details, /"ZZ" is not a known country/);

  // '00' is the ITU international prefix: read as '+' when no region says otherwise.
  assert.equal(phoneRecord('0049 30 123456').e164, '+4930123456');
  // A region wins over a leading '+'-less reading: the number is international anyway.
  assert.equal(phoneRecord('+44 20 1234 5678', { region: 'US' }).country_code, 'GB');
});

test('garbage and invalid input give a clear status and never throw', () => {
  const cases: Array<[unknown, string]> = [
    ['', 'NOT_A_NUMBER'],
    ['   ', 'NOT_A_NUMBER'],
    ['hello world', 'NOT_A_NUMBER'],
    ['+', 'NOT_A_NUMBER'],
    ['+999 123 456', 'INVALID'],
    ['+1 555 0100', 'INVALID'],
    ['+49 1', 'INVALID'],
    ['+44 20 1234 5678 9999 9999 9999', 'INVALID'],
    ['+'.padEnd(500, '1'), 'NOT_A_NUMBER'],
    ['\u0000\uffff+1', 'INVALID'],
    [null, 'NOT_A_NUMBER'],
    [undefined, 'NOT_A_NUMBER'],
    [12127365000, 'REGION_REQUIRED'],
  ];
  for (const [input, status] of cases) {
    const rec = phoneRecord(input as string);
    assert.equal(rec.status, status, JSON.stringify(input));
    assert.equal(rec.valid, false);
    assert.equal(rec.carrier_name, null);
    assert.deepEqual(rec.time_zones, []);
    assert.ok(rec.status_details.length > 5, JSON.stringify(input));
  }
  // Parsed but not in any range: the formats are still given, the rest stays empty.
  const unassigned = phoneRecord('+1 555 0100');
  assert.equal(unassigned.e164, '+15550100');
  assert.equal(unassigned.line_type, 'unknown');
  assert.equal(unassigned.region, null);
});

test('extensions and tel: URIs are read', () => {
  const ext = phoneRecord('+1 212 736 5000 ext. 12');
  assert.equal(ext.extension, '12');
  assert.equal(ext.e164, '+12127365000');
  assert.equal(phoneRecord('tel:+1-800-234-5678').line_type, 'toll_free');
});
