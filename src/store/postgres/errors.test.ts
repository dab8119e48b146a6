import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreUnavailableError, asStoreError } from './errors.ts';
import { isStoreUnavailable } from '../unavailable.ts';

const err = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

test('isStoreUnavailable: network errors, shutdown SQLSTATEs and pg messages', () => {
  assert.equal(isStoreUnavailable(err('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')), true);
  assert.equal(isStoreUnavailable(err('terminating connection due to administrator command', '57P01')), true);
  assert.equal(isStoreUnavailable(err('the database system is starting up', '57P03')), true);
  assert.equal(isStoreUnavailable(err('connection failure', '08006')), true);
  assert.equal(isStoreUnavailable(err('Connection terminated unexpectedly')), true);
  assert.equal(isStoreUnavailable(err('timeout exceeded when trying to connect')), true);
  assert.equal(isStoreUnavailable(new AggregateError([err('a', 'ECONNREFUSED'), err('b', 'ECONNREFUSED')])), true);
  assert.equal(isStoreUnavailable(new Error('wrapped', { cause: err('x', 'ECONNRESET') })), true);
  assert.equal(isStoreUnavailable(new StoreUnavailableError('down')), true);
});

test('isStoreUnavailable: query mistakes and constraint errors are not outages', () => {
  assert.equal(isStoreUnavailable(err('duplicate key value violates unique constraint', '23505')), false);
  assert.equal(isStoreUnavailable(err('syntax error at or near "SELEC"', '42601')), false);
  assert.equal(isStoreUnavailable(err('no account x')), false);
  assert.equal(isStoreUnavailable(undefined), false);
  assert.equal(isStoreUnavailable('ECONNREFUSED'), false);
});

test('asStoreError wraps only outages and keeps the cause', () => {
  const down = err('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED');
  const wrapped = asStoreError(down) as StoreUnavailableError;
  assert.ok(wrapped instanceof StoreUnavailableError);
  assert.equal(wrapped.code, 'STORE_UNAVAILABLE');
  assert.equal(wrapped.cause, down);
  assert.match(wrapped.message, /PostgreSQL unavailable: connect ECONNREFUSED/);
  const bug = err('oops', '42601');
  assert.equal(asStoreError(bug), bug);
  assert.equal(asStoreError(wrapped), wrapped);
});

test('a full disk is an outage on both stores: PostgreSQL 53100 (and class 53), SQLITE_FULL, SQLITE_IOERR_*', () => {
  for (const code of ['53100', '53000', '53200', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR', 'ENOSPC']) {
    assert.ok(isStoreUnavailable(Object.assign(new Error('could not extend file: No space left on device'), { code })), code);
  }
  assert.ok(asStoreError(Object.assign(new Error('could not extend file'), { code: '53100' })) instanceof StoreUnavailableError);
  assert.ok(!isStoreUnavailable(Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })));
});
