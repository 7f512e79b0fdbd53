import { inject, injectable } from 'inversify';
import type { Caller, Callers } from '../../application/ports/index.js';
import { TokenRepository, UserRepository } from '../../application/ports/index.js';

/** Two reads in a row: in memory a read costs no round trip, so nothing is gained by joining them. */
@injectable()
export class MemoryCallers implements Callers {
  constructor(
    @inject(TokenRepository) private readonly tokens: TokenRepository,
    @inject(UserRepository) private readonly users: UserRepository,
  ) {}

  async findByTokenHash(hash: string): Promise<Caller | null> {
    const token = await this.tokens.findByHash(hash);
    return token && { token, user: await this.users.findById(token.userId) };
  }
}
