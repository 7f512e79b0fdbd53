import { describe, expect, it } from 'vitest';
import { folderPaths, segment } from '../../src/application/shares/archive-paths.js';
import { cleanName, type Folder } from '../../src/domain/index.js';

describe('archive path segments (APPNOTE 4.4.17)', () => {
  it('make a colon `_` as they make `\\` and `/`: no drive letter, no alternate data stream', () => {
    expect(segment('C:\\win.txt')).toBe('C__win.txt');
    expect(segment('D:')).toBe('D_');
    expect(segment('C:')).toBe('C_');
    expect(segment('a:b')).toBe('a_b');
    expect(segment('report.txt::$DATA')).toBe('report.txt__$DATA');
    expect(segment('/etc/passwd')).toBe('_etc_passwd');
  });

  it('while the display name keeps its colon', () => {
    expect(cleanName('Meeting 10:30.txt')).toBe('Meeting 10:30.txt');
    expect(segment('Meeting 10:30.txt')).toBe('Meeting 10_30.txt');
  });

  it('are never empty, `.`, `..`, or dots and spaces alone', () => {
    expect(segment('')).toBe('_');
    expect(segment('\u0000\u202e')).toBe('_');
    expect(segment('.')).toBe('_');
    expect(segment('..')).toBe('__');
    expect(segment('...')).toBe('___');
    expect(segment('. .')).toBe('_ _');
    expect(segment('.\u00a0.')).toBe('_\u00a0_');
    expect(segment('.hidden')).toBe('.hidden');
    expect(segment('v1.0.')).toBe('v1.0.');
  });

  it('hold no control character', () => {
    expect(segment('bell\u0007\u001b[31m\u0000\t\r\n\u007f\u0085.txt')).toBe('bell[31m.txt');
  });

  it('make folder paths that start with no slash and no drive', () => {
    const at = new Date(0);
    const folder = (id: string, name: string, parentId: string): Folder => ({
      id,
      ownerId: 'o',
      parentId,
      name,
      createdAt: at,
      updatedAt: at,
    });
    const paths = folderPaths('root', [folder('a', 'C:\\dir', 'root'), folder('b', '..', 'a'), folder('c', '/', 'root')]);
    expect([...paths.values()]).toEqual(['', 'C__dir/', 'C__dir/__/', '_/']);
  });

  it('keep sibling folders whose names clean to one segment apart, and their files with them', () => {
    const at = new Date(0);
    const folder = (id: string, name: string, parentId: string): Folder => ({ id, ownerId: 'o', parentId, name, createdAt: at, updatedAt: at });
    const paths = folderPaths('root', [folder('a', 'Docs', 'root'), folder('b', 'docs', 'root'), folder('c', '10:30', 'root'), folder('d', '10_30', 'root'), folder('e', 'inner', 'b')]);
    expect(paths.get('a')).toBe('Docs/');
    expect(paths.get('b')).toBe('docs (2)/');
    expect(paths.get('e')).toBe('docs (2)/inner/');
    expect(new Set([paths.get('c'), paths.get('d')])).toEqual(new Set(['10_30/', '10_30 (2)/']));
  });
});
