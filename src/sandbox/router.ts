// A small router: METHOD + path pattern with :params. Paths end with a slash (spec part 4).
// Handlers are loaded on the first request that reaches them: a GET never loads the zod schemas
// that only the routes taking a body need (start-up cost of the embedded sandbox).
import type { Handler } from './handlers/types.js';

/** Imports a handler's module; called once per route, on its first request. */
export type HandlerLoader = () => Promise<Handler>;

/** pg: credentials and API version; partner: credentials of a PSP; sandbox: credentials; public: none (health). */
export type Access = 'pg' | 'partner' | 'sandbox' | 'public';

interface CompiledRoute {
  method: string;
  pattern: string;
  regex: RegExp;
  keys: string[];
  access: Access;
  load: HandlerLoader;
  loaded: () => Handler | undefined;
  maxBodyBytes?: number;
}

/** What a route may change from the defaults. */
export interface RouteOptions {
  /** A larger body than the pipeline's 1 MiB (the document upload: a 2 MB file and its form). */
  maxBodyBytes?: number;
}

export interface FoundRoute {
  kind: 'found';
  /** The pattern the route was added with (`/pg/orders/:order_id/`): the parity trace's operation. */
  pattern: string;
  access: Access;
  load: HandlerLoader;
  loaded: () => Handler | undefined;
  params: Record<string, string>;
  maxBodyBytes?: number;
}

export type RouteMatch =
  | FoundRoute
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(method: string, pattern: string, access: Access, loader: HandlerLoader, options: RouteOptions = {}): this {
    const keys: string[] = [];
    const source = pattern
      .split('/')
      .map((part) => {
        if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        keys.push(part.slice(1));
        return '([^/]+)';
      })
      .join('/');
    let loading: Promise<Handler> | undefined;
    let handler: Handler | undefined;
    const load = (): Promise<Handler> =>
      (loading ??= loader().then((h) => (handler = h)));
    // Once loaded, the handler is handed over synchronously (no await on every request).
    const loaded = (): Handler | undefined => handler;
    this.routes.push({ method, pattern, regex: new RegExp(`^${source}$`), keys, access, load, loaded, maxBodyBytes: options.maxBodyBytes });
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const allowed: string[] = [];
    for (const r of this.routes) {
      const m = r.regex.exec(path);
      if (!m) continue;
      if (r.method !== method) {
        allowed.push(r.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (let i = 0; i < r.keys.length; i++) {
        const raw = m[i + 1]!;
        try {
          params[r.keys[i]!] = raw.includes('%') ? decodeURIComponent(raw) : raw;
        } catch {
          return { kind: 'none' };
        }
      }
      return { kind: 'found', pattern: r.pattern, access: r.access, load: r.load, loaded: r.loaded, params, maxBodyBytes: r.maxBodyBytes };
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
  }

  /** True when `path` + "/" would match a route: used to hint at the missing trailing slash. */
  knowsWithSlash(path: string): boolean {
    return !path.endsWith('/') && this.routes.some((r) => r.regex.test(`${path}/`));
  }
}
