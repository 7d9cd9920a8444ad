/**
 * Callers waiting for a value under a key (the `listen` endpoint waiting for a request key's
 * result). Publishing a value wakes every waiter of its key at once; a waiter gives up after its
 * time-out or when its signal aborts (the client went away). Nothing polls.
 */

type Wake<T> = (value: T | undefined) => void;

export class KeyWaiters<T> {
  private readonly waiting = new Map<string, Set<Wake<T>>>();

  /**
   * Resolves with the value published under `key`, or with `undefined` after `timeoutMs`, when
   * `signal` aborts, or when the waiters are closed.
   */
  wait(key: string, timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> {
    return new Promise((resolve) => {
      if (signal?.aborted === true) {
        resolve(undefined);
        return;
      }
      let set = this.waiting.get(key);
      if (set === undefined) {
        set = new Set();
        this.waiting.set(key, set);
      }
      const waiters = set;
      const onAbort = () => wake(undefined);
      const timer = setTimeout(onAbort, timeoutMs);
      const wake: Wake<T> = (value) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        waiters.delete(wake);
        if (waiters.size === 0 && this.waiting.get(key) === waiters) this.waiting.delete(key);
        resolve(value);
      };
      waiters.add(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Wakes every waiter of `key` with `value`. */
  publish(key: string, value: T): void {
    const waiters = this.waiting.get(key);
    if (waiters === undefined) return;
    this.waiting.delete(key);
    for (const wake of [...waiters]) wake(value);
  }

  /** Whether anyone waits for `key`. */
  has(key: string): boolean {
    return this.waiting.has(key);
  }

  /** How many callers are waiting, over all keys. */
  get count(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  /** Wakes every waiter with `undefined` (the server is closing). */
  close(): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const set of all) for (const wake of [...set]) wake(undefined);
  }
}
