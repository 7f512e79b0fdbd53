import Prism from 'prismjs';

// Prism's language files extend the global Prism; the page only ever calls tokenize, never Prism's own
// highlighting (which writes HTML strings, refused by the page's Trusted Types policy anyway).
Prism.manual = true;
(globalThis as { Prism?: typeof Prism }).Prism = Prism;

export { Prism };
