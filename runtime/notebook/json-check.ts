// First place where a value is not plain JSON (a function, NaN, a class instance, a cycle); undefined object
// properties are skipped, as JSON.stringify does.
export function jsonProblem(root: unknown): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  // the containers above the current value, as a stack (to unwind) and a set (to look up): cycle checks stay linear
  const onPath: object[] = [];
  const onPathSet = new Set<object>();
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    while (onPath.length > depth) onPathSet.delete(onPath.pop() as object);
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${path || '(top level)'} is ${String(value)}`;
      continue;
    }
    if (typeof value !== 'object') return `${path || '(top level)'} is ${typeof value}`;
    if (onPathSet.has(value)) return `${path || '(top level)'} is a cycle`;
    const proto: unknown = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return `${path || '(top level)'} is not a plain object`;
    onPath.push(value);
    onPathSet.add(value);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 });
    } else {
      for (const key of Object.keys(value).reverse()) {
        if ((value as Record<string, unknown>)[key] === undefined) continue;
        stack.push({ value: (value as Record<string, unknown>)[key], path: `${path}${path === '' ? '' : '.'}${key}`, depth: depth + 1 });
      }
    }
  }
  return undefined;
}
