/**
 * The dashboard at /app: sign in with an API key, then Run, Requests, Tasks and files, Businesses, Monitors, Account.
 * Hash routes, so a reload keeps the page.
 */
import { h, mount, errorBox } from './dom.ts';
import { api, signIn, signOut, signedIn } from './api.ts';
import { runPage } from './run.ts';
import { requestPage, requestsPage } from './requests.ts';
import { tasksPage } from './tasks.ts';
import { accountPage } from './account.ts';
import { businessesPage } from './businesses.ts';
import { monitorPage, monitorsPage } from './monitors.ts';
import { TrawlError } from '../../clients/typescript/src/client.ts';

const root = document.getElementById('root')!;
let generation = 0;

const PAGES: [string, string][] = [['#/run', 'Run'], ['#/requests', 'Requests'], ['#/tasks', 'Tasks and files'], ['#/businesses', 'Businesses'], ['#/monitors', 'Monitors'], ['#/account', 'Account']];

function signInPage(message?: string) {
  const key = h('input', { type: 'password', id: 'api-key', autocomplete: 'off', placeholder: 'trw_…', 'aria-label': 'API key' });
  const msg = h('div', null, message ? errorBox(message) : null);
  mount(root, h('div.signin.card', null, h('h1', null, 'trawl'), h('p.muted', null, 'Sign in with an API key. It stays in this browser tab only (session storage) and is sent only in the X-API-KEY header.'),
    h('form', { onsubmit: async (e: Event) => {
      e.preventDefault();
      try { await signIn(key.value); location.hash = '#/run'; void route(); } catch (err) { mount(msg, errorBox(err instanceof TrawlError && err.status === 401 ? err.message : err)); }
    } }, h('label', { for: 'api-key' }, 'API key'), key, h('p', null, h('button.primary', { type: 'submit' }, 'Sign in'))), msg,
    h('p.help', null, 'The first start of trawl serve prints a key; operators create more with trawl keys create.')));
  key.focus();
}

async function route() {
  const gen = ++generation;
  const alive = () => gen === generation;
  if (!signedIn()) return signInPage();
  const hash = location.hash || '#/run';
  const main = h('main');
  mount(root, h('header', null, h('span.brand', null, 'trawl'), h('nav', null, PAGES.map(([href, label]) => h('a', { href, class: hash.startsWith(href) ? 'active' : '' }, label))),
    h('span.spacer'), h('a', { href: '/docs', style: 'color:#d0d5dd' }, 'API docs'), h('button', { onclick: () => { signOut(); location.hash = ''; signInPage(); } }, 'Sign out')), main);
  try {
    const m = hash.match(/^#\/requests\/([^/?]+)/);
    if (m) await requestPage(main, decodeURIComponent(m[1]), alive);
    else if (hash.startsWith('#/requests')) await requestsPage(main, alive);
    else if (hash.startsWith('#/tasks')) await tasksPage(main, alive);
    else if (hash.startsWith('#/account')) await accountPage(main);
    else if (hash.match(/^#\/monitors\/[^/?]+/)) await monitorPage(main, decodeURIComponent(hash.split('/')[2]), alive);
    else if (hash.startsWith('#/monitors')) await monitorsPage(main, alive);
    else if (hash.startsWith('#/businesses')) businessesPage(main);
    else await runPage(main);
  } catch (e) {
    if (e instanceof TrawlError && e.status === 401) { signOut(); return signInPage(e.message); }
    mount(main, errorBox(e));
  }
}

window.addEventListener('hashchange', () => void route());
void route();
