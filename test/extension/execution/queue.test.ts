import { describe, expect, test } from 'vitest';
import { ExecutionOrders } from '../../../extension/execution/execution-order.js';
import { KeyedSerialQueue } from '../../../extension/execution/queue.js';

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedSerialQueue', () => {
  test('runs one job at a time per notebook, in submission order', async () => {
    const queue = new KeyedSerialQueue<string>(() => undefined);
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string, ms: number) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      running--;
    };
    const all = [queue.run('nb', job('a', 30)), queue.run('nb', job('b', 1)), queue.run('nb', job('c', 10))];
    expect(queue.pending('nb')).toBe(3);
    await Promise.all(all);
    expect(most).toBe(1);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(queue.pending('nb')).toBe(0);
  });

  test('different notebooks run side by side', async () => {
    const queue = new KeyedSerialQueue<string>(() => undefined);
    let running = 0;
    let most = 0;
    const job = async (): Promise<void> => {
      running++;
      most = Math.max(most, running);
      await tick(20);
      running--;
    };
    await Promise.all([queue.run('one', job), queue.run('two', job)]);
    expect(most).toBe(2);
  });

  test('a job that throws is reported and the next cell still runs', async () => {
    const errors: unknown[] = [];
    const queue = new KeyedSerialQueue<string>((error) => errors.push(error));
    let ranAfter = false;
    await Promise.all([
      queue.run('nb', async () => {
        throw new Error('job blew up');
      }),
      queue.run('nb', async () => {
        ranAfter = true;
      }),
    ]);
    expect(ranAfter).toBe(true);
    expect(errors).toMatchObject([{ message: 'job blew up' }]);
  });
});

describe('ExecutionOrders', () => {
  test('counts per notebook, not per controller', () => {
    const orders = new ExecutionOrders<object>();
    const a = {};
    const b = {};
    expect([orders.take(a), orders.take(a), orders.take(b), orders.take(a)]).toEqual([1, 2, 1, 3]);
  });
});
