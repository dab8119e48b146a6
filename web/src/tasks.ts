/** Tasks and files: create a UI task (service, queries or categories x locations, enrichments, output), list them, download files. */
import { h, mount, errorBox, status, whenIso } from './dom.ts';
import { api } from './api.ts';
import { dataEndpoints } from './run.ts';

const FORMATS = ['xlsx', 'csv', 'json', 'parquet'];
const lines = (t: string) => t.split(/\r?\n/).map((x) => x.trim()).filter(Boolean);

export async function tasksPage(root: HTMLElement, alive: () => boolean) {
  const c = api();
  const services = (await dataEndpoints()).flatMap((e) => {
    const m = e.op.description?.match(/Service id: `([^`]+)`/);
    return m ? [{ id: m[1], label: `${m[1]} (${e.path})` }] : [];
  });
  const service = h('select', { id: 'task-service', 'aria-label': 'service' }, services.map((s) => h('option', { value: s.id }, s.label)));
  const queries = h('textarea', { id: 'task-queries', placeholder: 'One query a line (or leave empty and give categories and locations)' });
  const categories = h('textarea', { id: 'task-categories', placeholder: 'restaurants\ncafes', style: 'min-height:60px' });
  const locations = h('textarea', { id: 'task-locations', placeholder: 'US>New York>Albany', style: 'min-height:60px' });
  const enrichments = h('input', { type: 'text', id: 'task-enrichments', placeholder: 'e.g. phones_enricher_service (comma-separated)' });
  const format = h('select', { id: 'task-format', 'aria-label': 'output format' }, FORMATS.map((f) => h('option', { value: f }, f)));
  const columns = h('input', { type: 'text', id: 'task-columns', placeholder: 'all columns (or a comma-separated list)' });
  const tags = h('input', { type: 'text', id: 'task-tags', placeholder: 'comma-separated' });
  const msg = h('div');
  const list = h('div');

  async function refresh() {
    try {
      const { tasks } = await c.tasks({ pageSize: 50 });
      mount(list, tasks.length ? h('table.list', null, h('tr', null, ['Task', 'Status', 'Service', 'Queries', 'Created', 'File'].map((t) => h('th', null, t))),
        tasks.map((t) => {
          const file = t.results.find((r) => r.file_url)?.file_url;
          // A failed task says why (its request's reason, or why its file was not written).
          const why = t.results.find((r) => r.error)?.error;
          return h('tr', { dataset: { task: t.id } }, h('td.mono', null, t.id), h('td', null, status(t.status)), h('td', null, t.metadata.service_name),
            h('td', null, t.metadata.queries_count ?? t.metadata.queries.length), h('td', null, whenIso(t.created)),
            h('td', null, file ? h('a', { href: file, download: '' }, `Download ${file.split('.').pop()}`)
              : why ? h('span.task-reason', { role: 'note' }, why) : h('span.muted', null, t.status === 'PENDING' || t.status === 'RUNNING' ? 'not ready' : 'none')));
        })) : h('p.muted', null, 'No tasks yet.'));
      return tasks.some((t) => t.status === 'PENDING' || t.status === 'RUNNING');
    } catch (e) { mount(list, errorBox(e)); return false; }
  }

  const form = h('form', {
    onsubmit: async (ev: Event) => {
      ev.preventDefault();
      const split = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
      mount(msg);
      try {
        const { id } = await c.createTask({
          service_name: service.value, queries: lines(queries.value), categories: lines(categories.value), locations: lines(locations.value),
          enrichments: split(enrichments.value), tags: split(tags.value),
          settings: { output_extension: format.value, ...(split(columns.value).length ? { output_columns: split(columns.value) } : {}) },
        });
        mount(msg, h('div.notice', null, 'Task ', h('span.mono', null, id), ' created.'));
        void watch();
      } catch (e) { mount(msg, errorBox(e)); }
    },
  },
  h('div.grid', null,
    h('div', null, h('label', { for: 'task-service' }, 'Service'), service, h('label', { for: 'task-queries' }, 'Queries'), queries),
    h('div', null, h('label', { for: 'task-categories' }, 'Categories'), categories, h('label', { for: 'task-locations' }, 'Locations'), locations,
      h('div.help', null, 'Categories × locations become the queries when no query is given; on the map search each location is an area searched whole (each category over it).')),
    h('div', null, h('label', { for: 'task-enrichments' }, 'Enrichments'), enrichments, h('label', { for: 'task-format' }, 'Output format'), format,
      h('label', { for: 'task-columns' }, 'Output columns'), columns, h('label', { for: 'task-tags' }, 'Tags'), tags)),
  h('p', null, h('button.primary', { type: 'submit' }, 'Create task')), msg);

  async function watch() {
    while (alive() && await refresh()) await new Promise((r) => setTimeout(r, 1_000));
  }
  mount(root, h('h1', null, 'Tasks and files'), h('div.card', null, h('h2', null, 'New task'), form), h('div.card', null, h('h2', null, 'Tasks'), list));
  await watch();
}
