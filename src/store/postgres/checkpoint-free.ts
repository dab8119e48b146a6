/**
 * The items this process leased without a checkpoint and has saved none for since (issue 37): their
 * completion can leave out the deletes of the checkpoint's row and chunks (./complete-item.ts
 * `progress`), two writing CTEs whose start-up (each opens its table and index) every completion paid.
 *
 * Why none can exist: the claim says whether the item has a checkpoint after it locked the row, with
 * a fresh snapshot (migration 165's `item_checkpointed`); from then on only the lease's owner can
 * write one (saveProgress locks the item and checks `lease_owner`), and chunks are written only with
 * the checkpoint's row. So an item claimed with none by owner O, for which this store sent no
 * saveProgress since, has none as long as O still holds it, and when O no longer does, its completion
 * writes nothing anyway. The record is dropped before a checkpoint is sent (a save in flight counts),
 * when the item is ended, failed or handed back, and the oldest beyond a bound (a lease lost and never
 * ended here): a missing record only means the full statement.
 *
 * @example free.leased('r:0', 'w1', false); free.saving('r:0'); free.take('r:0', 'w1') // false
 */
const MAX = 100_000;

export class CheckpointFree {
  /** item id -> the owner that leased it with no checkpoint. */
  private readonly owners = new Map<string, string>();

  /** A claim leased `id` to `owner`; `checkpointed` as the claim read it. */
  leased(id: string, owner: string, checkpointed: boolean | undefined): void {
    this.owners.delete(id);
    if (checkpointed !== false) return;
    this.owners.set(id, owner);
    if (this.owners.size > MAX) this.owners.delete(this.owners.keys().next().value!);
  }

  /** A checkpoint of `id` is about to be sent, or its lease is ended or handed back. */
  forget(id: string): void {
    this.owners.delete(id);
  }

  /** Whether `owner`'s completion of `id` may leave the checkpoint's deletes out; the record goes. */
  take(id: string, owner: string): boolean {
    const ok = this.owners.get(id) === owner;
    this.owners.delete(id);
    return ok;
  }
}
