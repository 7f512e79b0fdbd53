import type { CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/application/index.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';
import { sessionOf } from '../support/core.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/**
 * What one login costs the database, command by command, with the throttle on MongoDB as `npm start` runs it. The
 * bounds are issue 16's: the guess is counted on its account and its address in one command.
 */
describe.skipIf(!target)('MongoDB commands of one login', () => {
  const dbName = freshDbName();
  let instance: MongoInstance;
  let core: Core;
  let seen: CommandStartedEvent[] = [];

  beforeAll(async () => {
    // Set where the client is made, so every connection it opens reports its commands.
    const uri = new URL(target!.uri);
    uri.searchParams.set('monitorCommands', 'true');
    instance = await mongoInstance(mongoConfig(uri.href, dbName));
    core = instance.core;
    await core.ensureAdmin.execute(ADMIN);
    const { token } = sessionOf(await core.login.execute(ADMIN));
    const admin = await core.authenticate.execute({ token });
    await core.createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' });
    const db = instance.persistence.db;
    if (!db) throw new Error('expected a MongoDB persistence');
    db.client.on('commandStarted', (event) => seen.push(event));
  });

  afterAll(async () => {
    await instance?.close();
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  /** The commands one login sends ("findAndModify throttle", ...), and the login's outcome. */
  async function commandsOf(password: string, client: string): Promise<{ outcome: string; commands: string[] }> {
    seen = [];
    const outcome = await core.login.execute({ username: 'alice', password, client }).then(
      () => 'ok',
      (err: { code?: string }) => err.code ?? 'error',
    );
    const commands = seen.map((event) => `${event.commandName} ${String(event.command[event.commandName])}`);
    return { outcome, commands };
  }

  it('a wrong password costs 3 commands, a repeated one 2 (the original throttle took 7)', async () => {
    const first = await commandsOf('wrong-password', '192.0.2.1');
    expect(first.outcome).toBe('unauthorized');
    expect(first.commands.length, first.commands.join('; ')).toBeLessThanOrEqual(3);
    const again = await commandsOf('wrong-password', '192.0.2.1');
    expect(again.outcome).toBe('unauthorized');
    expect(again.commands.length, again.commands.join('; ')).toBeLessThanOrEqual(2);
  });

  // 5 since second factors: after the session's insert, one read of the user's second factors (a user with none keeps
  // the session). A flag on the user record would bring it back to 4.
  it('a right password costs 5 commands, the session insert and the second-factor read included (the original throttle took 11)', async () => {
    const right = await commandsOf('alice-password', '192.0.2.2');
    expect(right.outcome).toBe('ok');
    expect(right.commands.length, right.commands.join('; ')).toBeLessThanOrEqual(5);
  });
});
