// Types for the fake model server (fake-model-server.mjs), used by the tests.
export interface FakeReply {
  text?: string;
  run_code?: { code: string; description?: string };
  calls?: { tool: string; input: unknown }[];
  status?: number;
  retryAfter?: number;
  times?: number;
  raw?: string;
  delayMs?: number;
  then?: FakeReply;
  thinking?: boolean;
  chunkDelayMs?: number;
}
export interface FakeRule {
  match: string;
  mode?: 'code' | 'direct';
  model?: string;
  replies: FakeReply[];
}
export interface FakeScript {
  rules: FakeRule[];
}
export interface RecordedRequest {
  api: 'openai' | 'responses' | 'anthropic';
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  // the client went away before a streamed reply ended
  aborted?: boolean;
  // a streamed reply sent to its end
  ended?: boolean;
}
export interface FakeModelServer {
  url: string;
  requests: RecordedRequest[];
  setScript(script: FakeScript): void;
  close(): Promise<void>;
}
export function startFakeModelServer(options?: { script?: FakeScript; port?: number }): Promise<FakeModelServer>;
