/** Types of scripts/lib/server-process.mjs (used by the e2e harness in TypeScript). */
export declare const ROOT: string;
export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: string[];
export declare function freePort(): Promise<number>;
export interface ServerProcess {
  baseUrl: string;
  port: number;
  databasePath: string;
  stop(): Promise<void>;
}
export declare function startServer(options?: {
  env?: Record<string, string>;
  distDir?: string;
  databasePath?: string;
  timeoutMs?: number;
  stdout?: 'ignore' | 'inherit';
}): Promise<ServerProcess>;
export declare const DEMO_ADMIN: { user: string; password: string };
export declare function demoAdminSubdivisions(
  baseUrl: string,
): Promise<{ token: string; subdivisions: Array<Record<string, unknown> & { key: string; name: string }> }>;
