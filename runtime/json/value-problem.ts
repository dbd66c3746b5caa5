import { pathSegments, traverseJson, type PathNode } from './traverse.js';

// First place where a value is not plain JSON (a function, NaN, a class instance, a cycle); undefined object
// properties are skipped, as JSON.stringify does. (Stricter lossless checks: lossless.ts, protocol/json-value.ts.)
export function jsonValueProblem(root: unknown): string | undefined {
  let problem: string | undefined;
  // the containers above the current value: a cycle is a container met again on its own path
  const onPath = new Set<object>();
  const found = (path: PathNode, what: string): 'stop' => {
    problem = `${pathText(path) || '(top level)'} is ${what}`;
    return 'stop';
  };
  traverseJson(root, {
    enter: (value, path) => {
      if (value === undefined && typeof path.segment === 'string') return 'skip';
      if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
      if (typeof value === 'number') return Number.isFinite(value) ? undefined : found(path, String(value));
      if (typeof value !== 'object') return found(path, typeof value);
      if (onPath.has(value)) return found(path, 'a cycle');
      const proto: unknown = Object.getPrototypeOf(value);
      if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
        return found(path, 'not a plain object');
      onPath.add(value);
      return undefined;
    },
    leave: (value) => onPath.delete(value),
  });
  return problem;
}

// `a.b[2].c`, as the notebook's messages name a place.
function pathText(path: PathNode): string {
  let out = '';
  for (const segment of pathSegments(path))
    out += typeof segment === 'number' ? `[${segment}]` : `${out === '' ? '' : '.'}${segment}`;
  return out;
}
