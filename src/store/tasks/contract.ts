/**
 * Tasks, the store's part behind `POST /tasks` (issue 16): a task wraps one request and, once it
 * ends, the file exported from its results (src/delivery/export). The file itself lives on disk or
 * in object storage; the store keeps its path and the unguessable token of its URL.
 *
 * @example await store.updateTask(id, { status: 'SUCCESS', fileToken, filePath, updated: Date.now() })
 */

export type TaskStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILURE' | 'CANCELED';

export interface TaskRow {
  id: string;
  accountId: string;
  requestId: string | null;
  serviceName: string;
  queries: string[];
  tags: string[];
  /** The POST /tasks body as received (settings, enrichments ...). */
  spec: Record<string, unknown>;
  status: TaskStatus;
  format: string;
  /** Unguessable token that makes up the file URL. */
  fileToken: string | null;
  filePath: string | null;
  /** `error`: why a task whose request succeeded ended FAILURE without its file (issue 28). */
  results: { product_name: string; quantity: number; file_url?: string; error?: string }[];
  created: number;
  updated: number;
  queueTaskId: string;
}

/** A task as a listing reads it: its bounded summary (./summary.ts) instead of its body and queries. */
export type TaskListRow = Omit<TaskRow, 'queries' | 'spec'> & { summary: Record<string, unknown> };

export interface TaskStore {
  createTask(t: TaskRow): Promise<void>;
  getTask(id: string): Promise<TaskRow | null>;
  getTaskByRequest(requestId: string): Promise<TaskRow | null>;
  getTaskByFileToken(token: string): Promise<TaskRow | null>;
  /** Tasks still PENDING or RUNNING whose request already ended (a crash came between the two):
   *  started workers finish them. */
  strandedTasks(limit: number): Promise<TaskRow[]>;
  updateTask(id: string, patch: Partial<Pick<TaskRow, 'status' | 'fileToken' | 'filePath' | 'results' | 'updated' | 'requestId'>>): Promise<void>;
  /** Newest first; `tag` matches a tag exactly or a substring of the service name / queries; `lastId` pages.
   *  Reads neither the body nor the queries of a task created with its summary. */
  listTasks(accountId: string, opts: { tag?: string; lastId?: string; limit: number }): Promise<TaskListRow[]>;
}
