import type { Language } from '../../../runtime/protocol/run-result.js';

// Program text that writes `frame` on the child's control channel (fd 3) as the runtime's own code would: a
// length-prefixed JSON frame from Node, a JSON line from Python. What a hostile program forges.
export function forgeFrame(language: Language, frame: string): string {
  return language === 'python'
    ? `import os\nos.write(3, ${JSON.stringify(frame + '\n')}.encode())`
    : `const fs = await import('node:fs');\nconst body = Buffer.from(${JSON.stringify(frame)});\nconst h = Buffer.alloc(4); h.writeUInt32BE(body.length, 0);\nfs.writeSync(3, Buffer.concat([h, body]));`;
}
