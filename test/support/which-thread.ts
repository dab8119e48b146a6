/** The thread a function ran on (0 = the main thread), for tests of code that moves work to a thread. */
import { threadId } from 'node:worker_threads';

export function whichThread(echo: unknown): { threadId: number; echo: unknown } {
  return { threadId, echo };
}
