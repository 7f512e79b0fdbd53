import { Prism } from './prism-setup.js';
import 'prismjs/components/prism-typescript.js';
import 'prismjs/components/prism-json.js';
import 'prismjs/components/prism-python.js';
import 'prismjs/components/prism-bash.js';
import 'prismjs/components/prism-c.js';
import 'prismjs/components/prism-cpp.js';
import 'prismjs/components/prism-java.js';
import 'prismjs/components/prism-go.js';
import 'prismjs/components/prism-rust.js';
import 'prismjs/components/prism-sql.js';
import 'prismjs/components/prism-yaml.js';
import 'prismjs/components/prism-markdown.js';
import 'prismjs/components/prism-diff.js';

/*
 * Prism with the grammars the pages colour, beside its own (plain text, markup, CSS, C-like, JavaScript). Every name
 * they answer to is listed in languages.ts, which the pages read without loading any of this; a test keeps the two
 * equal.
 */
export { Prism };
