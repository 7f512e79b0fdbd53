import { expect, it } from 'vitest';
import { Utf8Check } from '../../src/application/files/utf8-check.js';

const judge = (chunks: Uint8Array[]) => {
  const check = new Utf8Check();
  for (const chunk of chunks) check.see(chunk);
  return check.end();
};

it('judges the bytes as a whole, wherever the chunks split a character', () => {
  const text = Buffer.from('aé世😀z');
  for (let cut = 0; cut <= text.length; cut++) {
    expect(judge([text.subarray(0, cut), text.subarray(cut)]), `cut at ${cut}`).toBe(true);
  }
  expect(judge([...text].map((byte) => Uint8Array.of(byte)))).toBe(true);
});

it('refuses invalid bytes, overlong forms, lone surrogates and a character cut off at the end', () => {
  expect(judge([Uint8Array.of(0xff)])).toBe(false);
  expect(judge([Uint8Array.of(0xc0, 0xaf)])).toBe(false);
  expect(judge([Uint8Array.of(0xed, 0xa0, 0x80)])).toBe(false);
  expect(judge([Buffer.from('ok'), Uint8Array.of(0xe4, 0xb8)])).toBe(false);
  expect(judge([])).toBe(true);
});
