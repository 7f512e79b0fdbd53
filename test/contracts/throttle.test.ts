import { describe, expect, it } from 'vitest';
import { MemoryThrottle, MongoThrottle } from '../../src/adapters/rate-limit/index.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { throttleContract } from './throttle.contract.js';

throttleContract('MemoryThrottle', async () => new MemoryThrottle());

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

describe.skipIf(!target)('MongoThrottle', () => {
  const databases = useFreshDatabases(target!);

  throttleContract('MongoThrottle', async () => new MongoThrottle({ db: databases.fresh() }));

  it('shares lockouts between instances on one database, in one collection with a TTL index', async () => {
    const db = databases.fresh();
    const rule = { name: 'shared', limit: 2, windowMs: 60_000 };
    const [one, two] = [new MongoThrottle({ db }), new MongoThrottle({ db })];
    await one.count([{ rule, id: 'x' }]);
    await two.count([{ rule, id: 'x' }]);
    expect(await one.lockedFor([{ rule, id: 'x' }])).toBeGreaterThan(0);
    const indexes = await db.collection('throttle').indexes();
    expect(indexes.find((index) => index.name === 'expire_ttl')?.expireAfterSeconds).toBe(0);
    expect(indexes.find((index) => index.name === 'key_unique')?.unique).toBe(true);
  });
});
