import { describe, expect, it } from 'vitest';
import { NAME_MAX, cleanName, isWellFormed, requireName, wellFormed } from '../../src/domain/index.js';

describe('cleanName', () => {
  it('keeps ordinary names, trimmed and NFC-normalized', () => {
    expect(cleanName('  Quarterly report (final).pdf  ')).toBe('Quarterly report (final).pdf');
    expect(cleanName('cafe\u0301')).toBe('caf\u00e9');
    expect(cleanName('日本語 ファイル')).toBe('日本語 ファイル');
  });

  it('turns path separators into underscores so no name can climb a directory', () => {
    expect(cleanName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(cleanName('..\\..\\windows\\win.ini')).toBe('.._.._windows_win.ini');
    expect(cleanName('/')).toBe('_');
  });

  it('never yields . or ..', () => {
    expect(cleanName('..')).toBe('__');
    expect(cleanName('.')).toBe('_');
    expect(cleanName(' .. ')).toBe('__');
    expect(cleanName('...')).toBe('...');
  });

  it('drops NUL, control characters and invisible format characters', () => {
    expect(cleanName('a\u0000b')).toBe('ab');
    expect(cleanName('line\nbreak\ttab\r')).toBe('linebreaktab');
    expect(cleanName('del\u007f\u0085x')).toBe('delx');
    expect(cleanName('zero\u200bwidth\ufeff')).toBe('zerowidth');
  });

  it('drops bidi overrides that would disguise an extension', () => {
    expect(cleanName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanName('\u2066x\u2069\u202a\u202b\u202c\u202d')).toBe('x');
  });

  it(`bounds names at ${NAME_MAX} characters, counting code points`, () => {
    expect(cleanName('a'.repeat(1000))).toBe('a'.repeat(NAME_MAX));
    const emoji = cleanName('😀'.repeat(1000));
    expect([...emoji]).toHaveLength(NAME_MAX);
    expect(emoji).toBe('😀'.repeat(NAME_MAX));
    expect(cleanName('abcdef', 3)).toBe('abc');
    expect(cleanName(`${'a'.repeat(NAME_MAX - 1)} b`)).toBe('a'.repeat(NAME_MAX - 1));
  });

  it('can clean down to nothing', () => {
    expect(cleanName(' \u0000\u202e ')).toBe('');
  });
});

describe('requireName', () => {
  it('returns the cleaned name', () => {
    expect(requireName(' a/b ')).toBe('a_b');
  });

  it('refuses a name that cleans to nothing, naming the field', () => {
    expect(() => requireName('\u0000 \t', 'title')).toThrow(expect.objectContaining({ code: 'bad_request', details: { field: 'title' } }));
    expect(() => requireName('')).toThrow(expect.objectContaining({ details: { field: 'name' } }));
  });
});

describe('invisible and malformed text', () => {
  it('drops every format character (Cf) and the whole tag block', () => {
    expect(cleanName('soft\u00adhyphen')).toBe('softhyphen');
    expect(cleanName('arabic\u061cmark')).toBe('arabicmark');
    expect(cleanName('flag\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}')).toBe('flag\u{1F3F4}');
    expect(cleanName('a\u{E0000}\u{E0001}\u{E0010}b')).toBe('ab');
    expect(cleanName('x\u2064\u2065\u206fy\ufff9z')).toBe('xyz');
  });

  it('replaces a lone surrogate with U+FFFD and keeps surrogate pairs', () => {
    expect(cleanName('report\ud800.txt')).toBe('report\ufffd.txt');
    expect(cleanName('\udfffx\ud83d')).toBe('\ufffdx\ufffd');
    expect(cleanName('smile\ud83d\ude00')).toBe('smile😀');
    expect(isWellFormed('smile😀')).toBe(true);
    expect(isWellFormed('a\ud800')).toBe(false);
    expect(wellFormed('a\ude00b')).toBe('a\ufffdb');
  });

  it('refuses an explicit name holding a lone surrogate, naming the field', () => {
    expect(() => requireName('report\ud800.txt', 'title')).toThrow(
      expect.objectContaining({ code: 'bad_request', details: { field: 'title' } }),
    );
    expect(requireName('fine\ud83d\ude00')).toBe('fine😀');
  });
});
