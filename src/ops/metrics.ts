/**
 * Prometheus metrics (`/metrics`): HTTP requests by endpoint and status, work items by state, queue
 * depth, source errors by type, billed units by product.
 *
 * @example const m = createMetrics(); m.httpRequests.inc({ route: '/maps/search', status: '202' });
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'trawl_' });
  return {
    registry,
    httpRequests: new Counter({ name: 'trawl_http_requests_total', help: 'HTTP requests by route and status.', labelNames: ['method', 'route', 'status'], registers: [registry] }),
    connectionsRefused: new Counter({ name: 'trawl_connections_refused_total', help: 'Connections closed on arrival: their client (IPv4 address, IPv6 /64) had MAX_CONNECTIONS_PER_ADDRESS open, or MAX_CONNECTIONS were open (the last CONNECTION_RESERVE of them kept for clients holding few).', registers: [registry] }),
    workItems: new Gauge({ name: 'trawl_work_items', help: 'Work items by state.', labelNames: ['state'], registers: [registry] }),
    queueDepth: new Gauge({ name: 'trawl_queue_depth', help: 'Work items waiting to run.', registers: [registry] }),
    slotLoans: new Counter({ name: 'trawl_slot_loans_total', help: 'Slots a long item lent to another account\'s waiting item (lent), and borrowed items given back to the queue when the loan ended (given_back).', labelNames: ['event'], registers: [registry] }),
    itemsRun: new Counter({ name: 'trawl_work_items_run_total', help: 'Work item runs by endpoint and outcome.', labelNames: ['endpoint', 'outcome'], registers: [registry] }),
    sourceErrors: new Counter({ name: 'trawl_source_errors_total', help: 'Source errors by endpoint and type (layout_changed is the loud one).', labelNames: ['endpoint', 'type'], registers: [registry] }),
    proxyOutcomes: new Counter({ name: 'trawl_fetch_outcomes_total', help: 'Executor attempts by host, proxy tier and outcome (ok, blocked, captcha, rate_limited, soft_block, network, ...); hosts beyond the first 200 count as "other".', labelNames: ['host', 'tier', 'outcome'], registers: [registry] }),
    fetchErrors: new Counter({ name: 'trawl_fetch_errors_total', help: 'Executor fetch errors by type, retried or not.', labelNames: ['type'], registers: [registry] }),
    billedUnits: new Counter({ name: 'trawl_billed_units_total', help: 'Billed units by product (counted when requests end).', labelNames: ['product', 'unit'], registers: [registry] }),
    itemSeconds: new Histogram({ name: 'trawl_work_item_seconds', help: 'Work item run time.', labelNames: ['endpoint'], buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300], registers: [registry] }),
  };
}

const seenHosts = new Set<string>();
/** Hosts beyond the first this many are labelled "other": user-given URLs must not grow /metrics without end. */
export const METRIC_HOSTS = 200;

/**
 * The `host` label of a fetch metric: the host itself for the first `METRIC_HOSTS` seen, then "other".
 *
 * @example metricHost('www.google.com:443') // 'www.google.com:443'
 */
export function metricHost(host: string): string {
  if (seenHosts.has(host)) return host;
  if (seenHosts.size >= METRIC_HOSTS) return 'other';
  seenHosts.add(host);
  return host;
}
