import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';

type Port = Core['getProviders'];

export class GetProviders implements Port {
  constructor(private readonly p: Pick<Ports, 'identityProvider' | 'settings'>) {}

  async execute() {
    const { sso, passwordLogin } = this.p.settings;
    return {
      password: passwordLogin !== 'disabled',
      oidc: sso ? { label: sso.label, available: await this.p.identityProvider.available() } : null,
    };
  }
}
