/**
 * Test-only clock: `now()` and `sleep()` that move only when the test calls `advance`, so pacing
 * and backoff tests assert exact times and never wait for real.
 */
interface Timer {
  at: number;
  resolve: () => void;
}

export class FakeClock {
  t = 0;
  private timers: Timer[] = [];

  now = (): number => this.t;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const timer: Timer = { at: this.t + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal.reason);
      }, { once: true });
    });
  };

  /** Moves time forward by `ms`, firing due timers in time order and letting their callers run. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
    this.t = end;
    await flush();
  }

  get pending(): number {
    return this.timers.length;
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
