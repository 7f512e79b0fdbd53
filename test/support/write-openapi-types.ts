import { writeFileSync } from 'node:fs';
import { GENERATED_TYPES, generateTypes } from './openapi-types.js';

writeFileSync(GENERATED_TYPES, await generateTypes());
console.log(`wrote ${GENERATED_TYPES.pathname}`);
