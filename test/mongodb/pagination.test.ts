import { Core, Ports } from '../../src/application/index.js';
import { startCoffer } from '../../src/boot/server.js';
import { paginationSuite, PAGING_LIMITS } from '../http/pagination-suite.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { describe } from 'vitest';
import { CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** The paging suite on the service as `npm start` runs it, on MongoDB with GridFS. */
describe.skipIf(!target)('paging on MongoDB', () => {
  paginationSuite('mongodb', async () => {
    const dbName = freshDbName();
    const limits = Object.fromEntries(
      Object.entries(PAGING_LIMITS).map(([kind, max]) => [`LIMIT_${kind.toUpperCase()}`, String(max)]),
    );
    const running = await startCoffer(mongoConfig(target!.uri, dbName, limits), { argon2: CHEAP_ARGON2 });
    return {
      url: running.url,
      core: running.container.get<Core>(Core),
      ports: running.container.get<Ports>(Ports),
      close: async () => {
        await running.close();
        await dropDatabases(target!.uri, [dbName]);
        await target!.stop();
      },
    };
  });
});
