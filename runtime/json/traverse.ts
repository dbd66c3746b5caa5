// The iterative traversal of in-memory JSON values the plain walkers share (value problems, shape hashes, first
// differences): depth-first in document order, with parent-linked paths, never recursing, so a 200 000-deep value
// costs a stack of frames rather than the call stack. (walk.ts is the hardened walk for values from a program's
// realm, with captured intrinsics; json-scan.ts scans JSON text.)

export type PathSegment = string | number;

// Parent-linked paths: no array copy per visited value, so deep values stay linear.
export interface PathNode {
  readonly parent: PathNode | undefined;
  readonly segment: PathSegment | undefined;
  readonly depth: number;
}

export const ROOT_PATH: PathNode = { parent: undefined, segment: undefined, depth: 0 };

export const childPath = (parent: PathNode, segment: PathSegment): PathNode => ({
  parent,
  segment,
  depth: parent.depth + 1,
});

export function pathSegments(node: PathNode): PathSegment[] {
  const out: PathSegment[] = [];
  for (let n: PathNode | undefined = node; n !== undefined && n.segment !== undefined; n = n.parent)
    out.push(n.segment);
  return out.reverse();
}

// What a visitor says of a value it entered: walk into it (undefined), leave its children out, or end the walk.
export type Visit = 'skip' | 'stop' | undefined;

export interface Visitor {
  // before a value's children (every value, containers and scalars)
  enter(value: unknown, path: PathNode): Visit;
  // after a container's children, when it was walked into
  leave?(value: object, path: PathNode): void;
}

type Frame = { value: unknown; path: PathNode; entered: boolean };

// Walks arrays by index and objects by their own enumerable keys; true when the visitor ended the walk.
export function traverseJson(root: unknown, visitor: Visitor): boolean {
  const stack: Frame[] = [{ value: root, path: ROOT_PATH, entered: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const { value, path } = frame;
    if (frame.entered) {
      stack.pop();
      visitor.leave?.(value as object, path);
      continue;
    }
    const verdict = visitor.enter(value, path);
    if (verdict === 'stop') return true;
    if (verdict === 'skip' || value === null || typeof value !== 'object') {
      stack.pop();
      continue;
    }
    frame.entered = true;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: childPath(path, i), entered: false });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: (value as Record<string, unknown>)[key], path: childPath(path, key), entered: false });
      }
    }
  }
  return false;
}
