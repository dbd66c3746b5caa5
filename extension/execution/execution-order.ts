// Execution order counters, one per notebook (not per controller), forgotten with the notebook.
export class ExecutionOrders<K extends object> {
  readonly #next = new WeakMap<K, number>();

  take(notebook: K): number {
    const order = (this.#next.get(notebook) ?? 0) + 1;
    this.#next.set(notebook, order);
    return order;
  }
}
