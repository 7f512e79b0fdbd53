// The JavaScript MIME type essences of the WHATWG MIME Sniffing standard (what `<script>`, module imports and workers
// accept), WebAssembly's (what `WebAssembly.compileStreaming` accepts) and CSS's (what a style sheet needs under
// nosniff).
const CODE_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
  'application/wasm',
  'text/css',
]);

/** A stored type a browser would run or apply as code if a page of our origin loaded the bytes as such. */
export function isCodeType(mime: string): boolean {
  return CODE_TYPES.has(mime.split(';')[0]!.trim().toLowerCase());
}

/**
 * The type stored bytes are sent with. Code goes out as text/plain: with nosniff, no page of our origin can then
 * load a stored file as a script, module, worker, WebAssembly or style sheet, which would otherwise pass
 * `script-src 'self'` or `style-src 'self'` should an injection ever exist. The stored type is kept as it came.
 */
export function servedType(mime: string): string {
  return isCodeType(mime) ? 'text/plain' : mime;
}
