import { expectTypeOf, it } from 'vitest';
import type { PageData as ServerPageData } from '../../src/adapters/http/responses/pages/page-data.js';
import type { PageData as WebPageData } from '../../web/src/share/api.js';

// The share page reads its data block with a type of its own (web/src imports nothing from src). These checks are
// made by the type checker (`npm run typecheck`): a field the server adds, drops or retypes fails it.
it('the share page reads the data block as the server writes it', () => {
  expectTypeOf<ServerPageData>().toExtend<WebPageData>();
  expectTypeOf<WebPageData>().toExtend<ServerPageData>();
});
