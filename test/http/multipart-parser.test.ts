import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES, MultipartParser } from '../../src/adapters/http/uploads/multipart/multipart-parser.js';
import { FormDataReader, type FormLimits } from '../../src/adapters/http/uploads/multipart/form-data.js';
import {
  basename,
  multipartBoundary,
  parseDisposition,
  type PartHeaders,
} from '../../src/adapters/http/uploads/multipart/part-headers.js';

const B = 'X-BOUNDARY-7f3a';
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface ParsedPart {
  headers: PartHeaders;
  pieces: Buffer[];
}

/** Parses `body` written in chunks of `size` bytes (each a fresh copy, so views can be told from copies). */
function parse(body: Buffer, size = body.length, boundary = B) {
  const parts: ParsedPart[] = [];
  let ended = 0;
  let formEnds = 0;
  let delimiters = 0;
  const parser = new MultipartParser(boundary, {
    delimiter: () => {
      delimiters++;
      return true;
    },
    partBegin: (headers) => parts.push({ headers, pieces: [] }),
    partData: (data) => {
      expect(data.length).toBeGreaterThan(0);
      parts.at(-1)!.pieces.push(data);
    },
    partEnd: () => ended++,
    formEnd: () => formEnds++,
  });
  const chunks: Buffer[] = [];
  let error: Error | null = null;
  try {
    for (let at = 0; at < body.length; at += size) {
      const chunk = Buffer.alloc(Math.min(size, body.length - at));
      body.copy(chunk, 0, at, at + chunk.length);
      chunks.push(chunk);
      parser.write(chunk);
    }
    parser.end();
  } catch (err) {
    error = err as Error;
  }
  const data = (i: number) => Buffer.concat(parts[i]!.pieces);
  return { parts, data, ended, formEnds, delimiters, chunks, error, complete: parser.complete };
}

/** Random bytes full of near misses of the delimiter, but never the delimiter itself. */
function nearMisses(length: number, boundary = B): Buffer {
  const misses = ['\r', '\r\n', '\r\n-', '\r\n--', `\r\n--${boundary.slice(0, -1)}`, `\r\n--${boundary.slice(0, 5)}`, `\n--${boundary}`];
  const pieces: Buffer[] = [];
  let total = 0;
  while (total < length) {
    const piece =
      Math.random() < 0.5
        ? randomBytes(Math.floor(Math.random() * 40))
        : Buffer.from(misses[Math.floor(Math.random() * misses.length)]!, 'latin1');
    pieces.push(piece);
    total += piece.length;
  }
  // a miss right at the end too: the part's data ends with what looks like the start of its delimiter
  pieces.push(Buffer.from(`\r\n--${boundary.slice(0, 3)}`));
  const bytes = Buffer.concat(pieces);
  // a CR before the `\n--boundary` miss makes a real delimiter: spoil it
  for (let at = bytes.indexOf(`\r\n--${boundary}`); at !== -1; at = bytes.indexOf(`\r\n--${boundary}`, at)) bytes[at] = 0;
  return bytes;
}

function form(file: Buffer, options: { preamble?: string; epilogue?: string } = {}): Buffer {
  return Buffer.concat([
    Buffer.from(`${options.preamble ?? ''}--${B}\r\n`),
    Buffer.from(`Content-Disposition: form-data; name="name"\r\n\r\nhello\r\n--${B}\r\n`),
    Buffer.from(`Content-Disposition: form-data; name="file"; filename="f.bin"\r\n`),
    Buffer.from(`Content-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${B}--${options.epilogue ?? ''}`),
  ]);
}

describe('the multipart parser', () => {
  it('finds the delimiter split across every chunk edge: one byte at a time and chunks of 2 to 100 bytes', () => {
    const file = nearMisses(3000);
    const body = form(file, { preamble: `preamble\r\n--${B.slice(0, 4)}\r\n`, epilogue: `\r\nepilogue --${B}\r\n` });
    for (let size = 1; size <= 100; size++) {
      const { parts, data, error, complete, ended, formEnds, delimiters } = parse(body, size);
      expect(error, `chunks of ${size}`).toBeNull();
      expect(complete).toBe(true);
      expect(parts.length).toBe(2);
      expect([ended, formEnds, delimiters]).toEqual([2, 1, 3]);
      expect(data(0).toString()).toBe('hello');
      expect(sha(data(1)), `chunks of ${size}`).toBe(sha(file));
    }
  });

  it('reads random forms in random chunks alike', () => {
    for (let round = 0; round < 30; round++) {
      const file = nearMisses(1 + Math.floor(Math.random() * 20_000));
      const body = form(file);
      const { data, error } = parse(body, 1 + Math.floor(Math.random() * 5000));
      expect(error).toBeNull();
      expect(sha(data(1))).toBe(sha(file));
    }
  });

  it('hands the file bytes on as views of the chunks, copying only what it held back at a chunk edge', () => {
    const file = randomBytes(256 * 1024);
    const whole = form(file);
    const one = parse(whole);
    expect(one.error).toBeNull();
    for (const piece of one.parts[1]!.pieces) expect(piece.buffer).toBe(one.chunks[0]!.buffer);

    const delimiterLength = `\r\n--${B}`.length;
    for (const size of [7, 1000, 65536]) {
      const { parts, chunks, error } = parse(whole, size);
      expect(error).toBeNull();
      const own = new Set(chunks.map((chunk) => chunk.buffer));
      const copied = parts[1]!.pieces.filter((piece) => !own.has(piece.buffer as ArrayBuffer));
      const copiedBytes = copied.reduce((sum, piece) => sum + piece.length, 0);
      // at most one held-back tail (shorter than a delimiter) per chunk, and only where a CR could start a delimiter
      expect(copiedBytes).toBeLessThan(chunks.length * delimiterLength);
      if (size >= 1000) expect(copiedBytes).toBeLessThan(file.length / 100);
    }
  });

  it('takes time in proportion to the body, not to the boundary, even fed a byte at a time', () => {
    // Near misses of a long delimiter, one byte a chunk (as a client can send with chunked transfer encoding): work
    // in proportion to what is held back at each chunk would make a long boundary (60 000 bytes here) much dearer.
    const time = (boundary: string) => {
      const near = Buffer.from(`\r\n--${boundary.slice(0, -1)}x`);
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"\r\n\r\n`),
        ...Array.from({ length: Math.ceil(120_000 / near.length) }, () => near),
        Buffer.from(`\r\n--${boundary}--`),
      ]);
      let best = Infinity;
      for (let round = 0; round < 3; round++) {
        let bytes = 0;
        const parser = new MultipartParser(boundary, {
          delimiter: () => true,
          partBegin: () => {},
          partData: (data) => (bytes += data.length),
          partEnd: () => {},
          formEnd: () => {},
        });
        const start = performance.now();
        for (let at = 0; at < body.length; at++) parser.write(body.subarray(at, at + 1));
        parser.end();
        best = Math.min(best, performance.now() - start);
        expect(bytes).toBe(body.length - (body.indexOf('\r\n\r\n') + 4) - boundary.length - 6);
      }
      return best / body.length;
    };
    // per byte (the long boundary's own delimiter lines make its body longer)
    const short = time('b'.repeat(16));
    const long = time('b'.repeat(60_000));
    expect(long).toBeLessThan(short * 2.5);
  });

  it('takes a body that opens with the delimiter, or with a preamble, and ignores the epilogue', () => {
    const part = `Content-Disposition: form-data; name="a"\r\n\r\nA\r\n--${B}--`;
    for (const body of [`--${B}\r\n${part}`, `junk\r\n--${B}\r\n${part}`, `--${B}\r\n${part}\r\nanything at all`]) {
      const { parts, data, error } = parse(Buffer.from(body));
      expect(error).toBeNull();
      expect(parts.length).toBe(1);
      expect(data(0).toString()).toBe('A');
    }
    // a boundary-like line inside the preamble that is not at a line start does not count
    const { parts, error } = parse(Buffer.from(`x--${B}\r\n--${B}\r\n${part}`));
    expect(error).toBeNull();
    expect(parts.length).toBe(1);
  });

  it('skips to the next delimiter when a delimiter line holds anything but CRLF or --, transport padding too, as busboy', () => {
    const body =
      `--${B} \t \r\nContent-Disposition: form-data; name="a"\r\n\r\nA\r\n--${B}x\r\n` +
      `Content-Disposition: form-data; name="b"\r\n\r\nB\r\n--${B}-\r\nskipped\r\n--${B}\r-\r\n--${B}\r\n` +
      `Content-Disposition: form-data; name="c"\r\n\r\nC\r\n--${B}--  \r\n`;
    for (const size of [1, 3, 1000]) {
      const { parts, data, error, delimiters } = parse(Buffer.from(body), size);
      expect(error).toBeNull();
      expect(delimiters).toBe(6);
      expect(parts.length).toBe(1);
      expect(data(0).toString()).toBe('C');
    }
  });

  it('takes two delimiters in a row (the CRLF after the first begins the second) as no part between them', () => {
    const body = `--${B}\r\n--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\nA\r\n--${B}--`;
    for (const size of [1, 2, 1000]) {
      const { parts, data, error, delimiters } = parse(Buffer.from(body), size);
      expect(error).toBeNull();
      expect([parts.length, delimiters]).toEqual([1, 3]);
      expect(data(0).toString()).toBe('A');
    }
  });

  it('refuses a delimiter within a header block (busboy would read the block on into the next part)', () => {
    for (const cut of ['X-A: 1', 'X-A: 1\r\n', 'Content-Disposition: form-data; name="a"']) {
      const body = `--${B}\r\n${cut}\r\n--${B}\r\nContent-Disposition: form-data; name="b"\r\n\r\nB\r\n--${B}--`;
      for (const size of [1, 1000]) {
        expect(parse(Buffer.from(body), size).error?.message, JSON.stringify(cut)).toBe('A delimiter within a part header');
      }
    }
  });

  it('reads header names in any case, folded lines, and values as latin1', () => {
    const body = `--${B}\r\nCONTENT-disposition:form-data;\r\n name="a"\r\nX-Other:  v \r\nX-Other:\t\r\nX-Latin: \u00e9\r\n\r\nA\r\n--${B}--`;
    const { parts, error } = parse(Buffer.from(body, 'latin1'));
    expect(error).toBeNull();
    expect(parts[0]!.headers.get('content-disposition')).toEqual(['form-data; name="a"']);
    expect(parts[0]!.headers.get('x-other')).toEqual(['v ', '']);
    expect(parts[0]!.headers.get('x-latin')).toEqual(['\u00e9']);
  });

  it('refuses a part without headers, as busboy', () => {
    expect(parse(Buffer.from(`--${B}\r\n\r\nno headers\r\n--${B}--`)).error?.message).toBe('Malformed part header');
  });

  it('refuses a header block over 16 KiB as busboy counts it (the first byte of a value or of a later line twice)', () => {
    // one line of `bytes` bytes, the empty line included: busboy counts bytes + 1
    const oneLine = (bytes: number) => `X-Long: ${'v'.repeat(bytes - 'X-Long: '.length - 4)}\r\n\r\n`;
    // four lines, one of them folded: bytes + 2 for each line but the first, + 1 for the first
    const fourLines = (bytes: number) =>
      `X-A: 1\r\nX-B: 2\r\n 3\r\nX-Long: ${'v'.repeat(bytes - 'X-A: 1\r\nX-B: 2\r\n 3\r\nX-Long: '.length - 4)}\r\n\r\n`;
    const body = (header: string) => Buffer.from(`--${B}\r\n${header}data\r\n--${B}--`);
    for (const size of [1, 100, 100_000]) {
      expect(parse(body(oneLine(MAX_HEADER_BYTES - 1)), size).error, `chunks of ${size}`).toBeNull();
      expect(parse(body(oneLine(MAX_HEADER_BYTES)), size).error?.message).toBe('Part header too large');
      expect(parse(body(fourLines(MAX_HEADER_BYTES - 6)), size).error, `chunks of ${size}`).toBeNull();
      expect(parse(body(fourLines(MAX_HEADER_BYTES - 5)), size).error?.message).toBe('Part header too large');
    }
  });

  it('refuses malformed header lines', () => {
    for (const line of ['no colon', ' leading space: x', 'Bad Name: x', 'X: a\rb', 'X: a\nb', ': empty name']) {
      const { error } = parse(Buffer.from(`--${B}\r\n${line}\r\n\r\ndata\r\n--${B}--`));
      expect(error?.message, JSON.stringify(line)).toBe('Malformed part header');
    }
    // As busboy (and Node): fields past the first 1999 are read, and dropped.
    const many = parse(Buffer.from(`--${B}\r\n${'X: y\r\n'.repeat(1999)}Y: z\r\nX: y\r\n\r\ndata\r\n--${B}--`));
    expect(many.error).toBeNull();
    expect([many.parts[0]!.headers.get('x')!.length, many.parts[0]!.headers.get('y')]).toEqual([1999, undefined]);
  });

  it('refuses a body that ends early: in a part, in a header, after a delimiter, or without one at all', () => {
    const full = form(randomBytes(10_000));
    for (const cut of [0, 5, `--${B}\r\nContent-Dis`.length, 500, full.length - 3, full.length - 2]) {
      for (const size of [1, 64, 100_000]) {
        const { error, complete } = parse(full.subarray(0, cut), size);
        expect(complete).toBe(false);
        expect(error, `cut at ${cut}`).not.toBeNull();
      }
    }
    expect(parse(Buffer.from('no delimiter here at all')).error?.message).toBe('Unexpected end of form');
    // a part ended by a delimiter that is not the closing one, then the end of the body
    const part = 'Content-Disposition: form-data; name="a"\r\n\r\nA';
    // (the CRLF may begin a delimiter: it is held back, and the body ends after a delimiter)
    expect(parse(Buffer.from(`--${B}\r\n${part}\r\n--${B}\r\n`)).error?.message).toBe('Unexpected end of form');
    expect(parse(Buffer.from(`--${B}\r\n${part}\r\n--${B}\r\nX: y\r\n`)).error?.message).toBe('Malformed part header');
    expect(parse(Buffer.from(`--${B}\r\n${part}\r\n--${B}`)).error?.message).toBe('Unexpected end of form');
    expect(parse(Buffer.from(`--${B}\r\n${part}\r\n--${B}-`)).error?.message).toBe('Unexpected end of form');
    expect(parse(Buffer.from(`--${B}\r\n${part}\r\n--${B} \r\n`)).error?.message).toBe('Unexpected end of form');
  });

  it('ignores whatever comes after an error or after the closing delimiter', () => {
    const events: string[] = [];
    const parser = new MultipartParser(B, {
      delimiter: () => events.push('delimiter') > 0,
      partBegin: () => events.push('begin'),
      partData: () => events.push('data'),
      partEnd: () => events.push('end'),
      formEnd: () => events.push('form end'),
    });
    parser.write(Buffer.from(`--${B}--\r\n--${B}\r\n\r\nA\r\n--${B}--`));
    parser.end();
    expect(events).toEqual(['delimiter', 'form end']);
  });
});

interface ReadForm {
  fields: Array<[string | undefined, string, boolean]>;
  files: Array<{ name: string | undefined; filename: string | undefined; mime: string; bytes: Buffer; limited: boolean }>;
  limits: string[];
  error: Error | null;
}

const LIMITS: FormLimits = { files: 1, fields: 10, parts: 12, fieldSize: 4096, fileSize: 1024 * 1024 };

async function readForm(body: Buffer, size = 1000, limits: Partial<FormLimits> = {}): Promise<ReadForm> {
  const result: ReadForm = { fields: [], files: [], limits: [], error: null };
  const reading: Promise<void>[] = [];
  const reader = new FormDataReader(B, { ...LIMITS, ...limits }, {
    field: (name, value, truncated) => result.fields.push([name, value, truncated]),
    file: (name, stream, info) => {
      const file = { name, ...info, bytes: Buffer.alloc(0), limited: false };
      result.files.push(file);
      stream.on('limit', () => (file.limited = true));
      reading.push(
        (async () => {
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          file.bytes = Buffer.concat(chunks);
        })().catch(() => {}),
      );
    },
    limit: (kind) => result.limits.push(kind),
  });
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) chunks.push(body.subarray(at, at + size));
  await new Promise<void>((resolve) => {
    reader.on('finish', resolve);
    reader.on('error', (err) => {
      result.error = err;
      resolve();
    });
    Readable.from(chunks).pipe(reader);
  });
  await Promise.all(reading);
  return result;
}

const partOf = (headers: string, content: string | Buffer) =>
  Buffer.concat([Buffer.from(`--${B}\r\n${headers}\r\n\r\n`, 'latin1'), Buffer.from(content), Buffer.from('\r\n')]);
const formOf = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${B}--\r\n`)]);
const fileNamed = (disposition: string | Buffer) =>
  formOf(
    Buffer.concat([
      Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; `),
      Buffer.from(disposition),
      Buffer.from('\r\n\r\nx\r\n'),
    ]),
  );

describe('the form-data reader', () => {
  it('reads fields and a file, whose bytes arrive whole', async () => {
    const file = nearMisses(200_000);
    const body = formOf(
      partOf('Content-Disposition: form-data; name="name"', 'héllo ✓'),
      partOf('Content-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: Image/PNG; x=1', file),
    );
    for (const size of [1, 17, 65536]) {
      const { fields, files, error } = await readForm(body, size);
      expect(error).toBeNull();
      expect(fields).toEqual([['name', 'héllo ✓', false]]);
      expect(files.map(({ name, filename, mime }) => [name, filename, mime])).toEqual([['file', 'a.bin', 'image/png']]);
      expect(sha(files[0]!.bytes)).toBe(sha(file));
    }
  });

  it('reads quoted, escaped, raw UTF-8 and RFC 5987 file names, keeping the last path segment', async () => {
    const cases: Array<[string | Buffer, string]> = [
      ['filename="plain.txt"', 'plain.txt'],
      ['filename=token.txt', 'token.txt'],
      ['filename="a \\"quoted\\" name.txt"', 'a "quoted" name.txt'],
      ['filename="dir\\\\sub\\\\c.txt"', 'c.txt'],
      ['filename="C:\\\\Users\\\\me\\\\doc.txt"', 'doc.txt'],
      ['filename="../../etc/passwd"', 'passwd'],
      ['filename=".."', ''],
      ['filename="/"', ''],
      // as browsers send them: backslashes unescaped, quotes, CR and LF percent-encoded
      ['filename="C:\\Users\\me\\doc.txt"', 'doc.txt'],
      ['filename="my\\file.txt"', 'file.txt'],
      ['filename="a%22b%0D%0A.txt"', 'a%22b%0D%0A.txt'],
      // as busboy: a backslash escapes a quote or a backslash, and is kept before anything else
      ['filename="x\\y\\"z"', 'y"z'],
      ['filename="\\\\a"', 'a'],
      [Buffer.from('filename="résumé ✓.pdf"', 'utf8'), 'résumé ✓.pdf'],
      ["filename*=UTF-8''%E2%82%AC%20rates.txt", '€ rates.txt'],
      ["filename*=utf-8'en'caf%C3%A9", 'café'],
      ["filename*=ISO-8859-1''%A3%20rates", '£ rates'],
      ["filename=\"fallback.txt\"; filename*=UTF-8''wins.txt", 'wins.txt'],
      ["filename*=UTF-8''wins.txt; filename=\"fallback.txt\"", 'wins.txt'],
      ["FILENAME*=UTF-8''a%2Fb", 'b'],
      // an empty filename* gives way to filename
      ["filename*=UTF-8''; filename=\"fallback.txt\"", 'fallback.txt'],
      ["filename*=base64''abc", 'YWJj'],
    ];
    for (const [disposition, filename] of cases) {
      const { files, error } = await readForm(fileNamed(disposition));
      expect(error, String(disposition)).toBeNull();
      expect(files.map((file) => file.filename), String(disposition)).toEqual([filename]);
      expect(files[0]!.mime).toBe('text/plain');
    }
    expect(basename('a/b\\c')).toBe('c');
    expect(parseDisposition("form-data; filename*=UTF-8''%ZZ")).toBeUndefined();
    expect(parseDisposition("form-data; filename*=UTF-8''")).toBeUndefined();
    // busboy decodes no charset beyond its own few
    expect(parseDisposition("form-data; filename*=windows-1251''%C0")).toBeUndefined();
    expect(parseDisposition("form-data; filename*=windows-1251''; name=a")?.params.get('filename*')).toBe('');
    expect(parseDisposition('form-data; name="unterminated')).toBeUndefined();
  });

  it('skips a part without a form-data Content-Disposition, or with a malformed one', async () => {
    const body = formOf(
      partOf('Content-Type: text/plain', 'no disposition'),
      partOf('Content-Disposition: attachment; name="x"', 'other type'),
      partOf('Content-Disposition: form-data; name="bad', 'malformed'),
      partOf('Content-Disposition: FORM-DATA; NAME="kept"', 'yes'),
    );
    const { fields, files, error } = await readForm(body, 3);
    expect(error).toBeNull();
    expect(files).toEqual([]);
    expect(fields).toEqual([['kept', 'yes', false]]);
  });

  it('takes a part with an empty filename as a field, unless it is application/octet-stream, as busboy', async () => {
    let read = await readForm(fileNamed('filename=""'));
    expect([read.files, read.fields]).toEqual([[], [['file', 'x', false]]]);
    read = await readForm(
      formOf(partOf('Content-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream', 'x')),
    );
    expect(read.files.map(({ filename, mime }) => [filename, mime])).toEqual([[undefined, 'application/octet-stream']]);
  });

  it('decodes a field in its charset: busboy\'s own few as busboy does, any other TextDecoder knows, else UTF-8', async () => {
    const field = (charset: string, bytes: Buffer) =>
      partOf(`Content-Disposition: form-data; name="f"\r\nContent-Type: text/plain; charset=${charset}`, bytes);
    const { fields, error } = await readForm(
      formOf(
        field('UTF-8', Buffer.from('é✓')),
        field('iso-8859-1', Buffer.from([0xe9])),
        field('windows-1252', Buffer.from([0x80])),
        field('utf-16le', Buffer.from('é', 'utf16le')),
        field('base64', Buffer.from('abc')),
        field('iso-8859-2', Buffer.from([0xb1])),
        field('no-such-charset', Buffer.from('é')),
      ),
      7,
    );
    expect(error).toBeNull();
    expect(fields.map(([, value]) => value)).toEqual(['é✓', 'é', '\u0080', 'é', 'YWJj', 'ą', 'é']);
  });

  it('takes an application/octet-stream part as a file without a name, as busboy did', async () => {
    const body = formOf(partOf('Content-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream', 'x'));
    const { files } = await readForm(body);
    expect(files.map(({ filename, mime }) => [filename, mime])).toEqual([[undefined, 'application/octet-stream']]);
  });

  it('reports a field over the size limit as truncated, and the field, file and part limits', async () => {
    const field = (name: string, value: string) => partOf(`Content-Disposition: form-data; name="${name}"`, value);
    const file = (name: string) => partOf(`Content-Disposition: form-data; name="${name}"; filename="f"`, 'data');
    // as busboy: a field reaching the size limit is truncated
    let read = await readForm(formOf(field('a', 'x'.repeat(4095)), field('b', 'x'.repeat(4096)), field('c', 'x'.repeat(5000))), 100);
    expect(read.fields.map(([name, value, truncated]) => [name, value.length, truncated])).toEqual([
      ['a', 4095, false],
      ['b', 4096, true],
      ['c', 4096, true],
    ]);
    read = await readForm(formOf(...Array.from({ length: 11 }, (_, i) => field(`f${i}`, 'v'))));
    expect([read.fields.length, read.limits]).toEqual([10, ['fields']]);
    read = await readForm(formOf(file('file'), file('other'), file('third')));
    expect([read.files.length, read.limits]).toEqual([1, ['files']]);
    // as busboy: parts are counted at their closing delimiters, and the count reaching the limit is reported
    read = await readForm(formOf(...Array.from({ length: 12 }, () => partOf('X-Nothing: here', ''))));
    expect(read.limits).toEqual(['parts']);
    read = await readForm(formOf(...Array.from({ length: 11 }, () => partOf('X-Nothing: here', ''))));
    expect(read.limits).toEqual([]);
    // the parts after the limit are not read at all, not even their (here malformed) headers
    read = await readForm(
      formOf(...Array.from({ length: 10 }, (_, i) => field(`f${i}`, 'v')), partOf('X: 1', ''), partOf('X: 2', ''), partOf('Bad header', '')),
    );
    expect([read.fields.length, read.limits, read.error]).toEqual([10, ['parts'], null]);
  });

  it('cuts a file at the size limit and says so', async () => {
    const body = formOf(partOf('Content-Disposition: form-data; name="file"; filename="f"', randomBytes(5000)));
    const { files } = await readForm(body, 333, { fileSize: 4001 });
    expect(files[0]!.bytes.length).toBe(4001);
    expect(files[0]!.limited).toBe(true);
    const exact = await readForm(body, 333, { fileSize: 5001 });
    expect([exact.files[0]!.bytes.length, exact.files[0]!.limited]).toEqual([5000, false]);
  });

  it('fails a truncated form, and the open file stream with it', async () => {
    const whole = formOf(partOf('Content-Disposition: form-data; name="file"; filename="f"', randomBytes(50_000)));
    const errors: Error[] = [];
    const reader = new FormDataReader(B, LIMITS, {
      field: () => {},
      file: (_name, stream) => {
        stream.on('error', (err) => errors.push(err));
        stream.resume();
      },
      limit: () => {},
    });
    const failed = new Promise<Error>((resolve) => reader.on('error', resolve));
    Readable.from([whole.subarray(0, 30_000)]).pipe(reader);
    expect((await failed).message).toBe('Unexpected end of form');
    await sleep(10);
    expect(errors.length).toBe(1);
  });

  it('stops taking the body while the file is not read, and goes on when it is', async () => {
    const size = 4 * 1024 * 1024;
    const file = randomBytes(size);
    const body = formOf(partOf('Content-Disposition: form-data; name="file"; filename="f"', file));
    let pulled = 0;
    const source = new Readable({
      highWaterMark: 16 * 1024,
      read() {
        if (pulled >= body.length) return void this.push(null);
        const chunk = body.subarray(pulled, pulled + 16 * 1024);
        pulled += chunk.length;
        this.push(chunk);
      },
    });
    let fileStream: Readable | null = null;
    const reader = new FormDataReader(B, { ...LIMITS, fileSize: size + 1 }, {
      field: () => {},
      file: (_name, stream) => (fileStream = stream),
      limit: () => {},
    });
    const finished = new Promise<void>((resolve, reject) => {
      reader.on('finish', resolve);
      reader.on('error', reject);
    });
    source.pipe(reader);
    await sleep(100);
    expect(fileStream).not.toBeNull();
    // the file's stream, the writable's buffer and the source's: some tens of KiB, not the whole body
    expect(pulled).toBeLessThan(256 * 1024);
    const chunks: Buffer[] = [];
    for await (const chunk of fileStream!) chunks.push(chunk as Buffer);
    await finished;
    expect(sha(Buffer.concat(chunks))).toBe(sha(file));
  });

  it('goes on to the end of the form when the file is destroyed by its reader', async () => {
    const body = formOf(
      partOf('Content-Disposition: form-data; name="file"; filename="f"', randomBytes(1024 * 1024)),
      partOf('Content-Disposition: form-data; name="after"', 'read'),
    );
    const fields: string[] = [];
    const reader = new FormDataReader(B, { ...LIMITS, fileSize: 2 * 1024 * 1024 }, {
      field: (name) => fields.push(name!),
      file: (_name, stream) => {
        stream.on('error', () => {});
        setTimeout(() => stream.destroy(new Error('reader gave up')), 20);
      },
      limit: () => {},
    });
    const finished = new Promise<void>((resolve, reject) => {
      reader.on('finish', resolve);
      reader.on('error', reject);
    });
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 16 * 1024) chunks.push(body.subarray(at, at + 16 * 1024));
    Readable.from(chunks).pipe(reader);
    await finished;
    expect(fields).toEqual(['after']);
  });
});

describe('the upload Content-Type', () => {
  it('must be multipart/form-data with a boundary, quoted or not, in any case', () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(multipartBoundary(`Multipart/Form-Data; charset=utf-8; BOUNDARY="a b:c"`)).toBe('a b:c');
    expect(multipartBoundary('multipart/form-data; boundary="with \\"quote\\""')).toBe('with "quote"');
    // as busboy: an empty boundary is one
    expect(multipartBoundary('multipart/form-data; boundary=""')).toBe('');
    expect(multipartBoundary('multipart/form-data; boundary="a\\b"')).toBe('a\\b');
    for (const bad of [undefined, '', 'multipart/form-data', 'multipart/form-data; boundary=\u00e9', 'multipart/mixed; boundary=x',
      'application/x-www-form-urlencoded', 'multipart/form-data; boundary', 'multipart/form-data; boundary="x']) {
      expect(multipartBoundary(bad), String(bad)).toBeUndefined();
    }
  });
});
