import * as l10n from '@vscode/l10n';
import type { JsonValue } from '../../runtime/protocol/json-value.js';
import { el } from '../dom/el.js';

// Raster formats only: an image element never runs script, and SVG is left to the JSON view all the same.
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// what one call's answer may show: more images or bigger ones stay in the JSON view
const MAX_IMAGES = 12;
const MAX_IMAGE_BASE64 = 16 * 1024 * 1024;
const MAX_NODES = 10_000;

export interface FoundImage {
  mimeType: string;
  data: string;
  // where in the value it sits, e.g. `$[1]` or `$.resource`
  path: string;
}

const isObject = (v: unknown): v is Record<string, JsonValue> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function asImage(node: Record<string, JsonValue>): { mimeType: string; data: string } | undefined {
  // an MCP image item, or embedded / read resource contents with an image blob
  const data = node.type === 'image' ? node.data : node.blob;
  const mimeType = node.mimeType;
  if (typeof data !== 'string' || typeof mimeType !== 'string') return undefined;
  const mime = mimeType.toLowerCase();
  if (
    !IMAGE_TYPES.has(mime) ||
    data.length === 0 ||
    data.length > MAX_IMAGE_BASE64 ||
    data.length % 4 !== 0 ||
    !BASE64.test(data)
  )
    return undefined;
  return { mimeType: mime, data };
}

// The images in a call's value (MCP content items and resource contents), breadth-first, bounded; never throws.
export function findImages(value: JsonValue | undefined): FoundImage[] {
  const found: FoundImage[] = [];
  const queue: [JsonValue, string][] = value === undefined ? [] : [[value, '$']];
  let visited = 0;
  while (queue.length > 0 && found.length < MAX_IMAGES && visited < MAX_NODES) {
    const [node, at] = queue.shift() as [JsonValue, string];
    visited++;
    if (Array.isArray(node)) node.forEach((item, i) => queue.push([item, `${at}[${i}]`]));
    else if (isObject(node)) {
      const image = asImage(node);
      if (image !== undefined) found.push({ ...image, path: at });
      else
        for (const [key, child] of Object.entries(node))
          if (child !== null && typeof child === 'object') queue.push([child, `${at}.${key}`]);
    }
  }
  return found;
}

// The images of one call's answer, shown as images (never as base64 text), each labelled with where it sits.
export function callImages(value: JsonValue | undefined, callId: number): HTMLElement | undefined {
  const images = findImages(value);
  if (images.length === 0) return undefined;
  const strip = el('div', {
    class: 'ptc-call-images',
    role: 'group',
    'aria-label': l10n.t('Images in the answer of call #{0}', callId),
  });
  for (const image of images) {
    const label = l10n.t('{0} at {1}', image.mimeType, image.path);
    strip.append(
      el(
        'figure',
        { class: 'ptc-call-image' },
        el('img', {
          src: `data:${image.mimeType};base64,${image.data}`,
          alt: l10n.t('Image {0} in the answer of call #{1}', label, callId),
          loading: 'lazy',
        }),
        el('figcaption', { class: 'ptc-muted' }, label),
      ),
    );
  }
  return strip;
}
