import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';

type Port = Core['getShare'];

export class GetShare implements Port {
  constructor(private readonly p: Ports) {}

  async execute(_input: Parameters<Port['execute']>[0]): ReturnType<Port['execute']> {
    throw new Error('not implemented: GetShare');
  }
}
