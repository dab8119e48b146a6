import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricHost, METRIC_HOSTS } from './metrics.ts';

test('fetch metrics label at most METRIC_HOSTS hosts, the rest "other"', () => {
  for (let i = 0; i < METRIC_HOSTS; i++) assert.equal(metricHost(`h${i}.example:443`), `h${i}.example:443`);
  assert.equal(metricHost('one-more.example:443'), 'other');
  assert.equal(metricHost('h0.example:443'), 'h0.example:443', 'hosts seen before keep their label');
});
