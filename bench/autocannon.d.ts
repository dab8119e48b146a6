// autocannon ships no types; the benchmarks use this much of its API.
declare module 'autocannon' {
  namespace autocannon {
    interface Request { method?: string; path?: string; headers?: Record<string, string>; body?: string }
    interface Result { requests: { average: number; mean: number; total: number }; non2xx: number; errors: number; latency: { p50: number; p99: number } }
  }
  function autocannon(opts: { url: string; connections?: number; pipelining?: number; duration?: number; amount?: number; headers?: Record<string, string>; requests?: autocannon.Request[] }): Promise<autocannon.Result>;
  export default autocannon;
}
