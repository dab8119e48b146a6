/**
 * A backend's store is the composition of its parts (issue 16): each part is an object implementing
 * one part's contract over the backend's shared handle, and the store answers every part's methods
 * as its own, so callers keep one `Store`. A part class holds contract methods only (its helpers are
 * module functions), because every method on its prototype becomes a method of the store.
 *
 * @example
 *   exposeParts(this, [new SqliteAccounts(h), new SqliteTasks(h)]);
 *   await this.getAccount('a1'); // SqliteAccounts.getAccount, bound to its part
 */
export function exposeParts(store: object, parts: object[]): void {
  for (const part of parts) {
    const proto = Object.getPrototypeOf(part) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = proto[name];
      if (name === 'constructor' || typeof method !== 'function') continue;
      if (name in store) throw new Error(`store part ${part.constructor.name}: ${name} is defined twice`);
      Object.defineProperty(store, name, { value: method.bind(part), writable: true, configurable: true });
    }
  }
}
