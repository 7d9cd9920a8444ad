/**
 * Work for a key (a peer, a peer and a chain) run one at a time: asked for again while it runs, it
 * runs once more when it ends (the latest work asked for), however often it was asked meanwhile.
 * Gossip and mempool pushes use it, so a peer is sent the latest state without a queue of stale
 * ones.
 */
export class OneAtATime {
  /** Keys whose work runs, and the work asked for meanwhile (the latest), if any. */
  private readonly running = new Map<string, (() => Promise<unknown>) | null>();

  constructor(
    /** No more reruns once this says so (the network closed). */
    private readonly stopped: () => boolean,
  ) {}

  /**
   * Runs `work` for `key` now, or after the run under way (the latest work asked for meanwhile
   * runs, once). `work` handles its own failures; a failed run counts as ended.
   */
  run(key: string, work: () => Promise<unknown>): void {
    if (this.running.has(key)) {
      this.running.set(key, work);
      return;
    }
    this.running.set(key, null);
    const done = () => {
      const next = this.running.get(key) ?? null;
      this.running.delete(key);
      if (next !== null && !this.stopped()) this.run(key, next);
    };
    work().then(done, done);
  }
}
