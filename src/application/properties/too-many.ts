import { DomainError } from '../../domain/index.js';

export const tooMany = (why: string) => new DomainError('payload_too_large', why);
