/** Account: balance and the upcoming invoice, usage per product per day, API keys, webhook secret, failed webhook calls. */
import { h, mount, when, errorBox, svg } from './dom.ts';
import { api } from './api.ts';
import { chartFrame } from './chart.ts';
import type { Usage } from '../../clients/typescript/src/client.ts';
import { fixedMicros } from '../../src/billing/money.ts';

const COLORS = ['#2563eb', '#16a34a', '#ea580c', '#9333ea', '#0891b2', '#dc2626', '#ca8a04', '#4f46e5'];

/** Stacked bars: one per day, one colour per product, height = quantity. */
export function usageChart(u: Usage): HTMLElement {
  const products = [...new Set(u.days.flatMap((d) => d.products.map((p) => p.product_name)))];
  const max = Math.max(1, ...u.days.map((d) => d.products.reduce((s, p) => s + p.quantity, 0)));
  const W = 900, H = 200, pad = 28, bw = (W - pad) / u.days.length;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'usage per product per day' });
  root.appendChild(svg('line', { x1: pad, y1: H, x2: W, y2: H, stroke: '#d0d5dd', 'vector-effect': 'non-scaling-stroke' }));
  const ticks: { x: number; label: string }[] = [];
  u.days.forEach((d, i) => {
    let y = H;
    for (const p of d.products) {
      const hgt = (p.quantity / max) * (H - 10);
      y -= hgt;
      const r = svg('rect', { x: pad + i * bw + 2, y, width: Math.max(bw - 4, 1), height: hgt, fill: COLORS[products.indexOf(p.product_name) % COLORS.length], class: 'usage-bar' });
      r.appendChild(svg('title', {}, `${d.date} ${p.product_name}: ${p.quantity} ${p.unit}, ${fixedMicros(p.amount_micros)} ${u.currency.toUpperCase()}`));
      root.appendChild(r);
    }
    if (i % Math.ceil(u.days.length / 10) === 0) ticks.push({ x: pad + i * bw, label: d.date.slice(5) });
  });
  return chartFrame(root, W, String(max), ticks,
    h('div.legend', null, products.length ? products.map((p, i) => h('span', { style: `--c:${COLORS[i % COLORS.length]}` }, p)) : h('span.muted', null, 'No usage in these days.')));
}

export async function accountPage(root: HTMLElement) {
  const c = api();
  const balance = h('div.card');
  const usage = h('div.card');
  const keys = h('div.card');
  const hooks = h('div.card');
  mount(root, h('h1', null, 'Account'), h('div.grid', null, balance, keys), usage, hooks);

  void c.balance().then((b) => {
    const inv = b.upcoming_invoice;
    const cur = inv.currency.toUpperCase();
    // Six decimals from the exact micros (as the CLI prints them): the lines add up to the total as shown.
    const money = (micros: number) => `${fixedMicros(micros)} ${cur}`;
    mount(balance, h('h2', null, 'Balance'), h('div.big', { id: 'balance' }, money(b.balance_micros)), h('p.muted', null, `Account ${b.id} · ${b.account_status}`),
      h('h2', null, `Upcoming invoice (${when(inv.period_start)} – ${when(inv.period_end)})`),
      h('div.kv', { id: 'invoice' }, h('div', null, 'Total'), h('div', { dataset: { micros: String(inv.total_micros) } }, money(inv.total_micros)), h('div', null, 'Paid from balance'), h('div', null, money(inv.applied_balance_micros)), h('div', null, 'Due'), h('div', null, money(inv.amount_due_micros))),
      inv.products_lines.length ? h('table.list', { id: 'invoice-lines' }, h('tr', null, ['Product', 'Quantity', 'Amount'].map((t) => h('th', null, t))),
        inv.products_lines.map((l) => h('tr', null, h('td', null, l.product_name), h('td', null, `${l.quantity} ${l.unit}`), h('td', { dataset: { micros: String(l.amount_micros) } }, money(l.amount_micros))))) : null);
  }, (e) => mount(balance, errorBox(e)));

  void c.usage(30).then((u) => mount(usage, h('h2', null, 'Usage per day (last 30 days)'), usageChart(u)), (e) => mount(usage, errorBox(e)));

  const shownOnce = h('div');
  async function listKeys() {
    try {
      const ks = await c.keys();
      mount(keys, h('h2', null, 'API keys'), shownOnce,
        h('table.list', null, h('tr', null, ['Key', 'Created', 'State', ''].map((t) => h('th', null, t))),
          ks.map((k) => h('tr', { dataset: { key: k.id } }, h('td.mono', null, `${k.prefix}…`), h('td', null, when(k.created)), h('td', null, k.revoked ? `revoked ${when(k.revoked)}` : 'active'),
            h('td', null, k.revoked ? '' : h('button.danger', { onclick: async () => { try { await c.revokeKey(k.id); mount(shownOnce); await listKeys(); } catch (e) { mount(shownOnce, errorBox(e)); } } }, 'Revoke'))))),
        h('p', null, h('button', { id: 'create-key', onclick: async () => {
          const k = await c.createKey();
          await listKeys();
          mount(shownOnce, h('div.notice', null, 'New key — shown only this once, copy it now:', h('div.key-once', { id: 'new-key' }, k.api_key)));
        } }, 'Create key')));
    } catch (e) { mount(keys, errorBox(e)); }
  }
  void listKeys();

  const secret = h('span.mono', { id: 'webhook-secret' }, '••••••••');
  const calls = h('div');
  mount(hooks, h('h2', null, 'Webhooks'),
    h('p.help', null, 'Give a webhook URL per request (the webhook parameter on Run). Each call is signed: header X-Hub-Signature-256 = sha256=HMAC-SHA256(body, secret).'),
    h('div.row', null, h('strong', null, 'Signing secret'), secret,
      h('button', { onclick: async () => { secret.textContent = (await c.json<{ webhook_secret: string }>('GET', '/profile/webhook-secret')).webhook_secret; } }, 'Reveal'),
      h('button.danger', { onclick: async () => { if (confirm('Rotate the secret? Receivers must switch to the new one.')) secret.textContent = (await c.json<{ webhook_secret: string }>('POST', '/profile/webhook-secret')).webhook_secret; } }, 'Rotate')),
    h('h2', { style: 'margin-top:16px' }, 'Failed webhook calls (24 hours)'), calls);
  void c.webhookCalls().then((w) => mount(calls, w.length ? h('table.list', null, h('tr', null, h('th', null, 'When'), h('th', null, 'Status')), w.map((x) => h('tr', null, h('td', null, when(x.date)), h('td', null, x.status))))
    : h('p.muted', null, 'None.')), (e) => mount(calls, errorBox(e)));
}
