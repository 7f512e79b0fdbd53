// A plain script, as another host would write it: no Koa, no server, no test framework. It prints one JSON line.
import { createEmbeddedCore } from '../../src/embed.js';

const core = createEmbeddedCore({ limits: { folders: 2 } });
const account = { username: 'host-admin', password: 'a long host password' };
await core.ensureAdmin.execute(account);
const outcome = await core.login.execute(account);
if ('mfaRequired' in outcome) throw new Error('unexpected second factor');
const { token } = outcome;
const actor = await core.authenticate.execute({ token });

const projects = await core.createFolder.execute({ actor, name: 'Projects', parentId: null });
await core.createFolder.execute({ actor, name: 'Drafts', parentId: projects.id });
const third = await core.createFolder.execute({ actor, name: 'One too many', parentId: null }).catch((err) => err);
const paste = await core.createPaste.execute({ actor, content: 'hello from a host', type: 'markdown' });
const share = await core.createShare.execute({ actor, type: 'paste', id: paste.id, password: null });
const read = await core.getShare.execute({ actor: null, id: share.id, password: null });
const tree = await core.getFolder.execute({ access: { actor, share: null }, id: projects.id });
const usage = await core.getUsage.execute({ actor });

console.log(
  JSON.stringify({
    tree: { name: tree.name, children: tree.folders.map((f) => f.name) },
    limit: { code: third.code, limit: third.details?.limit },
    shared: { type: read.type, content: read.paste?.content, views: read.views },
    usage: { folders: usage.folders, pastes: usage.pastes.current, storage: usage.storage.current },
  }),
);
