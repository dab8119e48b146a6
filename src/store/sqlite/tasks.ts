/**
 * Tasks on SQLite (../tasks/contract.ts). JSON columns (queries, tags, spec, results) are text here.
 *
 * @example const t = await new SqliteTasks(h).getTaskByFileToken(token);
 */
import type { TaskListRow, TaskRow, TaskStore } from '../tasks/contract.ts';
import { TASK_COLUMNS, TASK_INSERT, TASK_LISTED, rowMappers, taskValues, type Row } from '../rows.ts';
import type { SqliteDb } from './handle.ts';
import { enqueueTaskFileReady } from './webhooks.ts';

const { toTask, toTaskListed } = rowMappers(JSON.parse);

function oneTask(h: SqliteDb, sql: string, arg: string): TaskRow | null {
  const r = h.s(sql).get(arg) as Row | undefined;
  return r ? toTask(r) : null;
}

export class SqliteTasks implements TaskStore {
  constructor(private readonly h: SqliteDb) {}

  async createTask(t: TaskRow): Promise<void> {
    const values = taskValues(t);
    this.h.s(`INSERT INTO tasks (${TASK_INSERT}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
  }

  async getTask(id: string): Promise<TaskRow | null> {
    return oneTask(this.h, 'SELECT * FROM tasks WHERE id = ?', id);
  }

  async getTaskByRequest(requestId: string): Promise<TaskRow | null> {
    return oneTask(this.h, 'SELECT * FROM tasks WHERE request_id = ?', requestId);
  }

  async getTaskByFileToken(token: string): Promise<TaskRow | null> {
    return oneTask(this.h, 'SELECT * FROM tasks WHERE file_token = ?', token);
  }

  async strandedTasks(limit: number): Promise<TaskRow[]> {
    return (this.h.s(`SELECT t.* FROM tasks t JOIN requests r ON r.id = t.request_id
                      WHERE t.status IN ('PENDING', 'RUNNING') AND r.finished_at IS NOT NULL ORDER BY t.id LIMIT ?`).all(limit) as Row[]).map(toTask);
  }

  async updateTask(id: string, patch: Partial<Pick<TaskRow, 'status' | 'fileToken' | 'filePath' | 'results' | 'updated' | 'requestId'>>): Promise<void> {
    this.h.tx(() => {
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined) continue;
        this.h.db.prepare(`UPDATE tasks SET ${TASK_COLUMNS[k]} = ? WHERE id = ?`).run(k === 'results' ? JSON.stringify(v) : v, id);
      }
      // A task that ends with its file: its `task.file_ready` subscription deliveries, in the same write.
      if (patch.status === 'SUCCESS' && patch.fileToken) {
        const t = this.h.s('SELECT account_id, request_id FROM tasks WHERE id = ?').get(id) as Row | undefined;
        if (t?.request_id) enqueueTaskFileReady(this.h, t.account_id, t.request_id, patch.updated ?? Date.now());
      }
    });
  }

  async listTasks(accountId: string, o: { tag?: string; lastId?: string; limit: number }): Promise<TaskListRow[]> {
    const where = ['account_id = ?'];
    const args: unknown[] = [accountId];
    if (o.lastId) { where.push('id < ?'); args.push(o.lastId); }
    if (o.tag) {
      where.push(`(EXISTS (SELECT 1 FROM json_each(tasks.tags) WHERE value = ?) OR instr(lower(service_name), lower(?)) > 0 OR instr(lower(tasks.queries), lower(?)) > 0)`);
      args.push(o.tag, o.tag, o.tag);
    }
    args.push(o.limit);
    return (this.h.db.prepare(`SELECT ${TASK_LISTED} FROM tasks WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`).all(...args) as Row[]).map(toTaskListed);
  }
}
