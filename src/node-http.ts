// node:http for pgw's code, taken with require() rather than an ESM import. On Node 22 and later
// an ESM import of a built-in builds its ESM facade, which reads every export, and node:http's
// WebSocket, CloseEvent and MessageEvent are lazy getters that load Node's own copy of undici:
// 28 ms on Node 24, 77 ms on Node 22, against 2 ms on Node 20 (issue 12). require() reads only
// what is used. Types still come from `import type ... from 'node:http'`.
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const { Agent, STATUS_CODES, createServer, request } = http;
