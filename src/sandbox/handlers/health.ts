// GET /sandbox/health/ (issue 24): readiness for CI and `docker compose` health checks, without
// credentials. The server listens only after the database is open and migrated, so any answer
// means ready; it carries what a CI log wants to show and nothing of any account.
import { stamp } from '../db.js';
import { schemaVersion } from '../migrations.js';
import type { Handler } from './types.js';

export const health: Handler = (ctx) => {
  const { db } = ctx.store;
  return {
    message: 'sandbox ready',
    data: {
      status: 'ok',
      version: __PGW_VERSION__,
      engine: db.driver.name,
      sqlite_version: db.driver.sqliteVersion,
      schema_version: schemaVersion(db.raw),
      // The database's default clock (an account tree may run its own: GET /sandbox/clock/).
      clock: stamp(ctx.store.nowMicros(null)),
    },
  };
};
