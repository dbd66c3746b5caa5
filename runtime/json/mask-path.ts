// Mask paths name the parts of an expected value that legitimately change (ids, timestamps): `$.id`,
// `$.cities[*].population`, `$[0].args["request-id"]`, `$.*.at`. A masked part is not compared, only its presence.

export type MaskSegment = { key: string } | { index: number } | { any: true };

export type MaskParse = { ok: true; segments: MaskSegment[] } | { ok: false; message: string };

const IDENT = /^[A-Za-z_$][\w$-]*/;

export function parseMaskPath(text: string): MaskParse {
  if (!text.startsWith('$')) return { ok: false, message: `a mask path starts with "$", got ${JSON.stringify(text)}` };
  const segments: MaskSegment[] = [];
  let rest = text.slice(1);
  while (rest.length > 0) {
    if (rest.startsWith('.*')) {
      segments.push({ any: true });
      rest = rest.slice(2);
    } else if (rest.startsWith('.')) {
      const match = IDENT.exec(rest.slice(1));
      if (match === null) return { ok: false, message: `expected a key after "." in ${JSON.stringify(text)}` };
      segments.push({ key: match[0] });
      rest = rest.slice(1 + match[0].length);
    } else if (rest.startsWith('[*]')) {
      segments.push({ any: true });
      rest = rest.slice(3);
    } else if (/^\[\d+\]/.test(rest)) {
      const end = rest.indexOf(']');
      segments.push({ index: Number(rest.slice(1, end)) });
      rest = rest.slice(end + 1);
    } else if (rest.startsWith('["')) {
      // a quoted key is a JSON string up to the closing `"]`
      const end = closingQuote(rest, 2);
      if (end === -1 || rest[end + 1] !== ']')
        return { ok: false, message: `unterminated ["…"] in ${JSON.stringify(text)}` };
      let key: unknown;
      try {
        key = JSON.parse(rest.slice(1, end + 1));
      } catch {
        return { ok: false, message: `invalid quoted key in ${JSON.stringify(text)}` };
      }
      segments.push({ key: key as string });
      rest = rest.slice(end + 2);
    } else {
      return {
        ok: false,
        message: `cannot read ${JSON.stringify(rest)} in mask path ${JSON.stringify(text)} (use .key, ["key"], [0], [*] or .*)`,
      };
    }
  }
  return { ok: true, segments };
}

function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

// True when a concrete path (keys and indices from the field's root) is one a mask names.
export function masks(mask: readonly MaskSegment[], path: readonly (string | number)[]): boolean {
  if (mask.length !== path.length) return false;
  for (let i = 0; i < mask.length; i++) {
    const m = mask[i] as MaskSegment;
    const p = path[i] as string | number;
    if ('any' in m) continue;
    if ('key' in m ? m.key !== p : m.index !== p) return false;
  }
  return true;
}

// `$.a[2]["b c"]` for display.
export function formatPath(path: readonly (string | number)[]): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return out;
}
