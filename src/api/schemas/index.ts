// The request schemas shared by the CLI and the sandbox.
export * from './common.js';
export * from './orders.js';
export * from './settlements.js';
export * from './merchants.js';
export * from './sandbox.js';
export * from './refunds.js';
export * from './links.js';
export * from './vba.js';
export * from './documents.js';
export * from './lrs.js';
