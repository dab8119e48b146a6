import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSyntax, domainOf } from './syntax.ts';

test('plain and RFC 5322 forms are accepted and normalised for SMTP', () => {
  const cases: Array<[string, string]> = [
    ['jane.doe@example.com', 'jane.doe@example.com'],
    ['Jane.Doe@EXAMPLE.com', 'Jane.Doe@example.com'],
    ['  jane@example.com  ', 'jane@example.com'],
    ['Jane Doe <jane@example.com>', 'jane@example.com'],
    ["o'brien+tag@mail.example.co.uk", "o'brien+tag@mail.example.co.uk"],
    ['"quoted local"@example.com', '"quoted local"@example.com'],
    ['"a\\"b"@example.com', '"a\\"b"@example.com'],
    ['user@exämple.com', 'user@xn--exmple-cua.com'],
    ['user@xn--exmple-cua.com', 'user@xn--exmple-cua.com'],
    ['üser@example.com', 'üser@example.com'],
    ['(comment)jane@example.com', 'jane@example.com'],
  ];
  for (const [input, address] of cases) {
    const r = checkSyntax(input);
    assert.ok(r.ok, `${input}: ${!r.ok && r.reason}`);
    assert.equal(r.address, address, input);
  }
  const idn = checkSyntax('user@exämple.com');
  assert.ok(idn.ok && idn.domain === 'exämple.com' && idn.asciiDomain === 'xn--exmple-cua.com');
  const utf = checkSyntax('üser@example.com');
  assert.ok(utf.ok && utf.smtputf8);
  const ascii = checkSyntax('user@example.com');
  assert.ok(ascii.ok && !ascii.smtputf8);
});

test('addresses SMTP cannot deliver to are refused with a reason', () => {
  const cases: Array<[unknown, RegExp]> = [
    ['', /empty/],
    ['plainaddress', /no @/],
    ['double..dot@example.com', /not an RFC 5322/],
    ['a@b@example.com', /not an RFC 5322/],
    ['.lead@example.com', /not an RFC 5322/],
    ['jane@localhost', /not fully qualified/],
    ['jane@[127.0.0.1]', /domain literals/],
    ['jane@1.2.3.4', /numeric label/],
    ['jane@-bad.example.com', /not a valid host name label/],
    ['jane@under_score.com', /not a valid host name label|not a valid \(international\)/],
    ['jane@example..com', /./],
    ['jane@xn--a.com', /not a valid \(international\) domain/],
    [`${'a'.repeat(65)}@example.com`, /64 octets/],
    [`jane@${'a'.repeat(64)}.com`, /63 characters|not a valid/],
    [`${'a'.repeat(60)}@${('b'.repeat(60) + '.').repeat(4)}com`, /254 octets|253/],
    ['x'.repeat(2000), /longer than/],
    [null, /not a string/],
    [42, /not a string/],
  ];
  for (const [input, reason] of cases) {
    const r = checkSyntax(input);
    assert.equal(r.ok, false, String(input));
    if (!r.ok) assert.match(r.reason, reason, String(input));
  }
});

test('the fast path and the full parser agree on plain addresses', () => {
  // Padding with a display name forces the full parser; both must give the same address.
  for (const a of ['a@example.com', 'first.last@sub.example.org', "x!#$%&'*+/=?^_`{|}~-y@example.net", 'A@EXAMPLE.COM']) {
    const fast = checkSyntax(a);
    const full = checkSyntax(`Name <${a}>`);
    assert.deepEqual(fast, full, a);
  }
});

test('domainOf takes the part after the last @ without a full parse', () => {
  assert.equal(domainOf('a@Mailinator.COM'), 'mailinator.com');
  assert.equal(domainOf('Name <a@example.com>'), 'example.com');
  assert.equal(domainOf('a@exämple.com'), 'xn--exmple-cua.com');
  assert.equal(domainOf('nothing'), null);
  assert.equal(domainOf('a@'), null);
});
