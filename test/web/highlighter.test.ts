import { describe, expect, it } from 'vitest';
import { Prism } from '../../web/src/common/code/grammars.js';
import { GRAMMARS, languageOf, languageOfFile, PLAIN_TEXT } from '../../web/src/common/code/languages.js';

describe('the grammars the highlighter loads', () => {
  it('are exactly those languages.ts names, so a page can choose one without loading Prism', () => {
    const known = Object.keys(Prism.languages).filter((name) => typeof Prism.languages[name] === 'object');
    expect(known.length).toBeGreaterThan(20);
    expect([...GRAMMARS].sort()).toEqual(known.sort());
    for (const name of PLAIN_TEXT) expect(Prism.languages[name]).toEqual({});
  });
});

describe('languages', () => {
  it('maps what people call a language, and file extensions, to a grammar; anything else is plain text', () => {
    expect(['ts', 'shell', 'html', 'py', 'yml', 'JSON', 'text'].map(languageOf)).toEqual([
      'typescript', 'bash', 'markup', 'python', 'yaml', 'json', 'text',
    ]);
    for (const none of ['cobol', 'extend', 'constructor', '__proto__']) expect(languageOf(none), none).toBeNull();
    expect(languageOfFile('main.rs', 'application/octet-stream')).toBe('rust');
    expect(languageOfFile('data', 'application/json')).toBe('json');
    expect(languageOfFile('.bashrc', 'application/octet-stream')).toBeNull();
  });
});
