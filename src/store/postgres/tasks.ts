/**
 * Tasks on PostgreSQL (../tasks/contract.ts). JSON columns (queries, tags, spec, results) are jsonb
 * here and come back parsed.
 *
 * @example const t = await new PostgresTasks(h).getTaskByFileToken(token);
 */
import type { TaskListRow, TaskRow, TaskStore } from '../tasks/contract.ts';
import { TASK_COLUMNS, TASK_INSERT, TASK_LISTED, rowMappers, taskValues } from '../rows.ts';
import type { PgDb } from './handle.ts';
import { enqueueTaskFileReady } from './webhooks.ts';

const { toTask, toTaskListed } = rowMappers((v) => v);

async function oneTask(h: PgDb, sql: string, arg: string): Promise<TaskRow | null> {
  const [r] = await h.q(sql, [arg]);
  return r ? toTask(r) : null;
}

export class PostgresTasks implements TaskStore {
  constructor(private readonly h: PgDb) {}

  async createTask(t: TaskRow): Promise<void> {
    const values = taskValues(t);
    await this.h.q(`INSERT INTO tasks (${TASK_INSERT}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  }

  async getTask(id: string): Promise<TaskRow | null> {
    return oneTask(this.h, 'SELECT * FROM tasks WHERE id = $1', id);
  }

  async getTaskByRequest(requestId: string): Promise<TaskRow | null> {
    return oneTask(this.h, 'SELECT * FROM tasks WHERE request_id = $1 LIMIT 1', requestId);
  }

  async getTaskByFileToken(token: string): Promise<TaskRow | null> {
    return oneTask(this.h, 'SELECT * FROM tasks WHERE file_token = $1', token);
  }

  async strandedTasks(limit: number): Promise<TaskRow[]> {
    const rows = await this.h.q(`SELECT t.* FROM tasks t JOIN requests r ON r.id = t.request_id
                                 WHERE t.status IN ('PENDING', 'RUNNING') AND r.finished_at IS NOT NULL ORDER BY t.id LIMIT $1`, [limit]);
    return rows.map(toTask);
  }

  async updateTask(id: string, patch: Partial<Pick<TaskRow, 'status' | 'fileToken' | 'filePath' | 'results' | 'updated' | 'requestId'>>): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [id];
    for (const [k, v] of Object.entries(patch)) {
      const col = TASK_COLUMNS[k];
      if (!col || v === undefined) continue;
      args.push(k === 'results' ? JSON.stringify(v) : v);
      sets.push(`${col} = $${args.length}`);
    }
    if (!sets.length) return;
    // A task that ends with its file: its `task.file_ready` subscription deliveries, in the same transaction.
    if (patch.status !== 'SUCCESS' || !patch.fileToken) {
      await this.h.q(`UPDATE tasks SET ${sets.join(', ')} WHERE id = $1`, args);
      return;
    }
    await this.h.tx(async (c) => {
      const [t] = await this.h.q(`UPDATE tasks SET ${sets.join(', ')} WHERE id = $1 RETURNING account_id, request_id`, args, c);
      if (t?.request_id) await enqueueTaskFileReady(this.h, c, t.account_id, t.request_id, patch.updated ?? Date.now());
    });
  }

  async listTasks(accountId: string, o: { tag?: string; lastId?: string; limit: number }): Promise<TaskListRow[]> {
    const where = ['account_id = $1'];
    const args: unknown[] = [accountId];
    if (o.lastId) { args.push(o.lastId); where.push(`id < $${args.length}`); }
    if (o.tag) {
      args.push(o.tag);
      const p = `$${args.length}`;
      // Same match as SQLite: an exact tag, or a case-insensitive substring of the service name or of
      // the queries' JSON text.
      where.push(`(tags @> jsonb_build_array(${p}::text) OR strpos(lower(service_name), lower(${p}::text)) > 0
                   OR strpos(lower(queries::text), lower(${p}::text)) > 0)`);
    }
    args.push(o.limit);
    return (await this.h.q(`SELECT ${TASK_LISTED} FROM tasks WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${args.length}`, args)).map(toTaskListed);
  }
}
