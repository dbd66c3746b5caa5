export interface PageServer {
  origin: string;
  route(pathname: string, type: string, body: string | ((url: URL) => string | Promise<string>)): void;
  close(): Promise<void>;
}
export declare function startPageServer(): Promise<PageServer>;
