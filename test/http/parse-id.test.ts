import { describe, expect, it } from 'vitest';
import { id, parseId } from '../../src/adapters/http/validation.js';

describe('parseId', () => {
  it('takes every id the shared schema takes, unchanged', () => {
    for (const value of ['a', 'x'.repeat(128), 'Zm9v-_', ' spaced ', 'é']) {
      expect(id.safeParse(value).success).toBe(true);
      expect(parseId(value)).toBe(value);
    }
  });

  it('refuses what the schema refuses, with the field named as zod words it', () => {
    for (const value of ['', 'x'.repeat(129), undefined]) {
      expect(id.safeParse(value).success).toBe(false);
      let caught: unknown;
      try {
        parseId(value, 'shareId');
      } catch (err) {
        caught = err;
      }
      expect(caught).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^shareId /) });
    }
  });
});
