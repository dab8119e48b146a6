import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientGroup } from './client-group.ts';

test('IPv4 as it is, IPv6 by its /64, IPv4-mapped as IPv4, zone ids dropped', () => {
  assert.equal(clientGroup('127.0.0.2'), '127.0.0.2');
  assert.equal(clientGroup('::ffff:10.1.2.3'), '10.1.2.3');
  assert.equal(clientGroup('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientGroup('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(clientGroup('2001:0db8:0001:0002::'), '2001:db8:1:2::/64');
  assert.equal(clientGroup('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientGroup('2001:db8:0:0:1::'), clientGroup('2001:db8::2'));
  assert.notEqual(clientGroup('2001:db8:1:2::1'), clientGroup('2001:db8:1:3::1'));
  assert.equal(clientGroup('::1'), '0:0:0:0::/64');
  assert.equal(clientGroup('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(clientGroup('64:ff9b::192.0.2.33'), '64:ff9b:0:0::/64');
  assert.equal(clientGroup(''), '');
});
