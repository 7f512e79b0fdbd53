import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';

type Port = Core['ensureAdmin'];

export class EnsureAdmin implements Port {
  constructor(private readonly p: Ports) {}

  async execute(_input: Parameters<Port['execute']>[0]): ReturnType<Port['execute']> {
    throw new Error('not implemented: EnsureAdmin');
  }
}
