import { describe, expect, it } from 'vitest';
import { isCodeType, servedType } from '../../src/domain/index.js';

describe('the type stored bytes are served with', () => {
  it('is text/plain for every JavaScript type, WebAssembly and CSS, in any case and with parameters', () => {
    for (const mime of [
      'text/javascript',
      'TEXT/JAVASCRIPT; charset=utf-8',
      'text/javascript;goal=module',
      'application/javascript',
      'application/x-javascript',
      'application/ecmascript',
      'application/x-ecmascript',
      'text/ecmascript',
      'text/x-ecmascript',
      'text/x-javascript',
      'text/javascript1.0',
      'text/javascript1.5',
      'text/jscript',
      'text/livescript',
      'application/wasm',
      'text/css',
    ]) {
      expect(isCodeType(mime), mime).toBe(true);
      expect(servedType(mime), mime).toBe('text/plain');
    }
  });

  it('is the stored type for everything else', () => {
    for (const mime of ['text/plain', 'application/json', 'image/png', 'text/html', 'application/pdf', 'text/javascript2']) {
      expect(isCodeType(mime), mime).toBe(false);
      expect(servedType(mime), mime).toBe(mime);
    }
  });
});
