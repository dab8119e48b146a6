/**
 * The token budget of one tool result (issue 36): MCP clients refuse results over about 25,000
 * tokens, so a result is cut to a budget (default 20,000, MCP_TOKEN_BUDGET) and says how to get the
 * rest. Tokens are estimated as characters / 4, the usual rule for JSON and English text.
 *
 * @example fitRecords(records, 0, 20_000) // { shown: [...], next: 120 } (next null: the end)
 */
export const tokensOf = (text: string): number => Math.ceil(text.length / 4);

/** The records from `offset` that fit in `budget` tokens (at least one, so a page always moves on). */
export function fitRecords(records: unknown[], offset: number, budget: number): { shown: unknown[]; next: number | null } {
  const shown: unknown[] = [];
  let used = 200; // the envelope around them
  for (let i = offset; i < records.length; i++) {
    const t = tokensOf(JSON.stringify(records[i]) ?? 'null') + 1;
    if (shown.length > 0 && used + t > budget) return { shown, next: i };
    shown.push(records[i]);
    used += t;
  }
  return { shown, next: null };
}

/** A JSON answer cut to `budget`: its longest array is shortened until it fits, and `truncated`
 *  says how many of how many are shown and `how` to ask for the rest. */
export function fitAnswer(answer: unknown, budget: number, how: string): unknown {
  const text = JSON.stringify(answer);
  if (tokensOf(text) <= budget) return answer;
  if (Array.isArray(answer)) {
    const { shown } = fitRecords(answer, 0, budget);
    return { items: shown, truncated: { shown: shown.length, total: answer.length, how } };
  }
  if (answer && typeof answer === 'object') {
    const o = answer as Record<string, unknown>;
    const key = Object.keys(o).filter((k) => Array.isArray(o[k])).sort((a, b) => JSON.stringify(o[b]).length - JSON.stringify(o[a]).length)[0];
    if (key) {
      const rest = { ...o, [key]: [] };
      const { shown } = fitRecords(o[key] as unknown[], 0, Math.max(1_000, budget - tokensOf(JSON.stringify(rest))));
      return { ...o, [key]: shown, truncated: { field: key, shown: shown.length, total: (o[key] as unknown[]).length, how } };
    }
  }
  return { text: text.slice(0, budget * 4), truncated: { how } };
}
