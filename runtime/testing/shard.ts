// `--shard i/n`: which notebooks machine i of n runs. Every machine computes the same split from the same sorted
// list, largest notebooks first onto the least loaded shard, so shards take about equal time.
export type ShardSpec = { index: number; total: number };

export function parseShard(text: string): ShardSpec | string {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (match === null) return `--shard expects i/n (e.g. 1/4), got "${text}"`;
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (total < 1 || index < 1 || index > total) return `--shard ${text}: i must be between 1 and n`;
  return { index, total };
}

// `items` must come in the same order on every machine (discovery sorts them); weight is the work (test cells).
export function shardOf<T>(items: readonly { item: T; weight: number }[], shard: ShardSpec): T[] {
  const loads = new Array<number>(shard.total).fill(0);
  const chosen: T[] = [];
  const order = items
    .map((entry, position) => ({ ...entry, position }))
    .sort((a, b) => b.weight - a.weight || a.position - b.position);
  const assigned = new Map<number, number>();
  for (const entry of order) {
    let target = 0;
    for (let s = 1; s < loads.length; s++) if ((loads[s] as number) < (loads[target] as number)) target = s;
    loads[target] = (loads[target] as number) + Math.max(1, entry.weight);
    assigned.set(entry.position, target);
  }
  items.forEach((entry, position) => {
    if (assigned.get(position) === shard.index - 1) chosen.push(entry.item);
  });
  return chosen;
}
