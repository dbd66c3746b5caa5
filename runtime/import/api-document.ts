import type { JsonNode } from './json-node.js';

// One API payload found in a transcript file: a request body, a response body, or a bare message/item list.
export interface ApiDocument {
  node: JsonNode;
  role: 'request' | 'response' | 'bare';
  // when the log says when the exchange happened
  timestamp?: string;
}
