import { isAbsolute, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../src/boot/config.js';

/** The ConfigError loadConfig throws for `env`, failing the test if it does not throw one. */
function errorFor(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has a default for everything', () => {
    expect(loadConfig({})).toEqual<Config>({
      port: 3000,
      host: '0.0.0.0',
      dataDir: resolve('./data'),
      mongodbUri: null,
      mongodbDb: null,
      persistence: null,
      production: false,
      blobStore: 'fs',
      adminUsername: null,
      adminPassword: null,
      registration: 'closed',
      sessionTtlDays: 30,
      sessionMaxDays: 365,
      maxUploadBytes: 1073741824,
      limits: {
        storage: 10737418240,
        files: 10000,
        folders: 1000,
        pastes: 1000,
        collections: 100,
        shares: 1000,
        tokens: 20,
        requests: 100,
      },
      logLevel: 'info',
      trustProxy: 0,
      clientLimits: { bodyTimeout: 15_000, uploadMinRate: 1024, uploadRateWindow: 60_000, maxConnectionsPerAddress: 100 },
      maxConcurrentUploads: 10,
      resumableExpiryHours: 24,
      publicUrl: null,
      instanceLeaseSeconds: 30,
      recoverySweepSeconds: 10,
      passwordLogin: 'enabled',
      oidc: null,
      activity: true,
      activityAddresses: 'truncated',
      activityRetentionDays: 90,
      webhookAllowPrivate: false,
      mail: null,
    });
  });

  it('is in production only when NODE_ENV is exactly production', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
    for (const value of ['development', 'test', 'Production', '']) {
      expect(loadConfig({ NODE_ENV: value }).production).toBe(false);
    }
  });

  it('treats empty strings as unset', () => {
    const names = ['PORT', 'HOST', 'DATA_DIR', 'MONGODB_URI', 'MONGODB_DB', 'PERSISTENCE', 'BLOB_STORE'];
    names.push('ADMIN_USERNAME', 'ADMIN_PASSWORD', 'REGISTRATION', 'SESSION_TTL_DAYS', 'SESSION_MAX_DAYS');
    const empty = Object.fromEntries([...names, 'LOG_LEVEL', 'LIMIT_FILES', 'TRUST_PROXY', 'PUBLIC_URL'].map((k) => [k, '']));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: 'some/where',
      MONGODB_URI: 'mongodb://db:27017/coffer',
      MONGODB_DB: 'coffer_prod',
      PERSISTENCE: 'mongodb',
      BLOB_STORE: 'gridfs',
      ADMIN_USERNAME: 'root',
      ADMIN_PASSWORD: 'hunter22hunter22',
      REGISTRATION: 'open',
      SESSION_TTL_DAYS: '0.5',
      SESSION_MAX_DAYS: '90',
      MAX_UPLOAD_BYTES: '1048576',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '2',
      LIMIT_STORAGE: '0',
      LIMIT_FILES: '1',
      LIMIT_FOLDERS: '2',
      LIMIT_PASTES: '3',
      LIMIT_COLLECTIONS: '4',
      LIMIT_SHARES: '5',
      LIMIT_TOKENS: '6',
      BODY_TIMEOUT_SECONDS: '2.5',
      UPLOAD_MIN_BYTES_PER_SECOND: '0',
      UPLOAD_RATE_WINDOW_SECONDS: '30',
      MAX_CONNECTIONS_PER_ADDRESS: '1000',
      MAX_CONCURRENT_UPLOADS: '3',
      RESUMABLE_EXPIRY_HOURS: '0.5',
      INSTANCE_LEASE_SECONDS: '1.5',
      RECOVERY_SWEEP_SECONDS: '0.25',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      mongodbUri: 'mongodb://db:27017/coffer',
      mongodbDb: 'coffer_prod',
      persistence: 'mongodb',
      blobStore: 'gridfs',
      adminUsername: 'root',
      adminPassword: 'hunter22hunter22',
      registration: 'open',
      sessionTtlDays: 0.5,
      sessionMaxDays: 90,
      maxUploadBytes: 1048576,
      logLevel: 'debug',
      trustProxy: 2,
      limits: { storage: 0, files: 1, folders: 2, pastes: 3, collections: 4, shares: 5, tokens: 6 },
      clientLimits: { bodyTimeout: 2500, uploadMinRate: 0, uploadRateWindow: 30_000, maxConnectionsPerAddress: 1000 },
      maxConcurrentUploads: 3,
      resumableExpiryHours: 0.5,
      instanceLeaseSeconds: 1.5,
      recoverySweepSeconds: 0.25,
    });
    expect(isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir).toBe(resolve('some/where'));
  });

  const BAD: [string, string][] = [
    ['PORT', '0'],
    ['PORT', '65536'],
    ['PORT', 'abc'],
    ['PORT', '80.5'],
    ['PORT', ' 80'],
    ['HOST', 'local host'],
    ['MONGODB_URI', 'postgres://x'],
    ['MONGODB_DB', 'has space'],
    ['MONGODB_DB', 'dotted.name'],
    ['MONGODB_DB', 'a/b'],
    ['MONGODB_DB', '$cmd'],
    ['MONGODB_DB', 'x'.repeat(64)],
    ['PERSISTENCE', 'postgres'],
    ['PERSISTENCE', 'MongoDB'],
    ['BLOB_STORE', 's3'],
    ['BLOB_STORE', 'memory'],
    ['REGISTRATION', 'OPEN'],
    ['REGISTRATION', 'yes'],
    ['SESSION_TTL_DAYS', '0'],
    ['SESSION_TTL_DAYS', '-1'],
    ['SESSION_TTL_DAYS', 'Infinity'],
    ['SESSION_TTL_DAYS', '1e400'],
    ['SESSION_MAX_DAYS', '0'],
    ['SESSION_MAX_DAYS', '-1'],
    ['SESSION_MAX_DAYS', 'Infinity'],
    ['SESSION_MAX_DAYS', '1e400'],
    ['SESSION_MAX_DAYS', '36501'],
    ['SESSION_MAX_DAYS', '29'],
    ['RESUMABLE_EXPIRY_HOURS', '0'],
    ['RESUMABLE_EXPIRY_HOURS', '8761'],
    ['RESUMABLE_EXPIRY_HOURS', 'never'],
    ['INSTANCE_LEASE_SECONDS', '0'],
    ['INSTANCE_LEASE_SECONDS', '3601'],
    ['INSTANCE_LEASE_SECONDS', 'soon'],
    ['RECOVERY_SWEEP_SECONDS', '0'],
    ['RECOVERY_SWEEP_SECONDS', '-1'],
    ['RECOVERY_SWEEP_SECONDS', '3601'],
    ['MAX_UPLOAD_BYTES', '0'],
    ['MAX_UPLOAD_BYTES', '1.5'],
    ['MAX_UPLOAD_BYTES', '1e9'],
    ['LOG_LEVEL', 'verbose'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', 'TRUE'],
    ['TRUST_PROXY', '-1'],
    ['TRUST_PROXY', '100'],
    ['TRUST_PROXY', '10.0.0.1'],
    ['PUBLIC_URL', 'files.example.com'],
    ['PUBLIC_URL', '/coffer'],
    ['PUBLIC_URL', 'ftp://files.example.com'],
    ['PUBLIC_URL', 'javascript:alert(1)'],
    ['PUBLIC_URL', 'https://files.example.com/?a=1'],
    ['PUBLIC_URL', 'https://files.example.com/#top'],
    ['PUBLIC_URL', 'https://files.example.com?'],
    ['PUBLIC_URL', 'https://files example.com'],
    ['PUBLIC_URL', 'https://user:secret@files.example.com'],
    ['LIMIT_STORAGE', '-1'],
    ['LIMIT_STORAGE', '99999999999999999999'],
    ['LIMIT_FILES', '0x10'],
    ['LIMIT_FOLDERS', '1.0'],
    ['LIMIT_PASTES', 'many'],
    ['LIMIT_COLLECTIONS', '+5'],
    ['LIMIT_SHARES', '1_000'],
    ['LIMIT_TOKENS', ' 20'],
    ['BODY_TIMEOUT_SECONDS', '0'],
    ['BODY_TIMEOUT_SECONDS', '3601'],
    ['UPLOAD_MIN_BYTES_PER_SECOND', '-1'],
    ['UPLOAD_MIN_BYTES_PER_SECOND', '1k'],
    ['UPLOAD_RATE_WINDOW_SECONDS', '0'],
    ['MAX_CONNECTIONS_PER_ADDRESS', '0'],
    ['MAX_CONCURRENT_UPLOADS', '0'],
    ['MAX_CONCURRENT_UPLOADS', 'ten'],
  ];
  it.each(BAD)('rejects %s=%j and names the variable', (variable, value) => {
    const err = errorFor({ [variable]: value });
    expect(err.variable).toBe(variable);
    expect(err.message.startsWith(`${variable} `)).toBe(true);
  });

  it('reads TRUST_PROXY as a number of trusted proxy hops', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '3' }).trustProxy).toBe(3);
  });

  it('reads PUBLIC_URL as an absolute http(s) base without its trailing slash, and never echoes credentials', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://files.example.com/' }).publicUrl).toBe('https://files.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080' }).publicUrl).toBe('http://10.0.0.5:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/coffer//' }).publicUrl).toBe('https://example.com/coffer');
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Files.Example.com' }).publicUrl).toBe('https://files.example.com');
    expect(errorFor({ PUBLIC_URL: 'https://user:hunter22@x.example' }).message).not.toContain('hunter22');
    // Wrong in another way too: still refused for its credentials, never echoed.
    expect(errorFor({ PUBLIC_URL: 'https://user:hunter22@x.example/?x' }).message).not.toContain('hunter22');
  });

  it('accepts every persistence and blob store choice, and database names MongoDB accepts', () => {
    for (const kind of ['memory', 'mongodb', 'embedded'] as const) {
      expect(loadConfig({ PERSISTENCE: kind }).persistence).toBe(kind);
    }
    expect(loadConfig({ BLOB_STORE: 'fs' }).blobStore).toBe('fs');
    expect(loadConfig({ BLOB_STORE: 'gridfs' }).blobStore).toBe('gridfs');
    for (const name of ['coffer', 'Coffer-Prod_2', 'x'.repeat(63)]) expect(loadConfig({ MONGODB_DB: name }).mongodbDb).toBe(name);
  });

  it('keeps SESSION_MAX_DAYS at least SESSION_TTL_DAYS, naming SESSION_MAX_DAYS when it is shorter', () => {
    const err = errorFor({ SESSION_TTL_DAYS: '60', SESSION_MAX_DAYS: '59.5' });
    expect(err.variable).toBe('SESSION_MAX_DAYS');
    expect(err.message).toContain('SESSION_TTL_DAYS (60)');
    expect(err.message).toContain('"59.5"');
    expect(loadConfig({ SESSION_TTL_DAYS: '60', SESSION_MAX_DAYS: '60' })).toMatchObject({
      sessionTtlDays: 60,
      sessionMaxDays: 60,
    });
    expect(loadConfig({ SESSION_MAX_DAYS: '30' }).sessionMaxDays).toBe(30);
    // Unset, the maximum never stops a start that only lengthened the idle lifetime.
    expect(loadConfig({ SESSION_TTL_DAYS: '400' })).toMatchObject({ sessionTtlDays: 400, sessionMaxDays: 400 });
    expect(loadConfig({ SESSION_TTL_DAYS: '7' }).sessionMaxDays).toBe(365);
  });

  it('requires the admin username and password together', () => {
    expect(errorFor({ ADMIN_USERNAME: 'root' }).variable).toBe('ADMIN_PASSWORD');
    expect(errorFor({ ADMIN_PASSWORD: 'long enough secret' }).variable).toBe('ADMIN_USERNAME');
    expect(loadConfig({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: '12345678' }).adminUsername).toBe('root');
  });

  it('checks the admin username against the username rule', () => {
    for (const username of ['r', 'has space', '-dash', 'x'.repeat(33), 'bad/slash']) {
      expect(errorFor({ ADMIN_USERNAME: username, ADMIN_PASSWORD: 'long enough secret' }).variable).toBe(
        'ADMIN_USERNAME',
      );
    }
  });

  it('checks the admin password length and never echoes it', () => {
    for (const password of ['short7!', 'p'.repeat(257)]) {
      const err = errorFor({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: password });
      expect(err.variable).toBe('ADMIN_PASSWORD');
      expect(err.message).not.toContain(password.slice(0, 6));
      expect(JSON.stringify(err)).not.toContain(password.slice(0, 6));
    }
    expect(loadConfig({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'p'.repeat(256) }).adminPassword).toHaveLength(256);
  });

  it('never echoes the MongoDB URI, which may carry credentials', () => {
    const err = errorFor({ MONGODB_URI: 'mongo://user:s3cretpass@db' });
    expect(err.variable).toBe('MONGODB_URI');
    expect(err.message).not.toContain('s3cretpass');
  });

  it('shows a non-secret bad value to help fix it', () => {
    expect(errorFor({ PORT: 'abc' }).message).toContain('"abc"');
  });

  describe('single sign-on', () => {
    const base = { OIDC_ISSUER: 'https://auth.example.com/realms/home', OIDC_CLIENT_ID: 'coffer' };

    it('is off without OIDC_ISSUER, whatever else is set', () => {
      expect(loadConfig({ OIDC_CLIENT_ID: 'coffer', OIDC_LABEL: 'Keycloak' }).oidc).toBeNull();
    });

    it('has defaults for everything but the issuer and the client id', () => {
      expect(loadConfig(base).oidc).toEqual({
        issuer: 'https://auth.example.com/realms/home',
        clientId: 'coffer',
        clientSecret: null,
        scopes: 'openid profile email',
        usernameClaim: 'preferred_username',
        groupsClaim: 'groups',
        adminGroups: [],
        autoRegister: true,
        label: 'Single sign-on',
      });
    });

    it('reads every variable', () => {
      const config = loadConfig({
        ...base,
        OIDC_CLIENT_SECRET: 's3cret',
        OIDC_SCOPES: 'openid profile groups',
        OIDC_USERNAME_CLAIM: 'nickname',
        OIDC_GROUPS_CLAIM: 'urn:zitadel:iam:org:project:roles',
        OIDC_ADMIN_GROUPS: ' coffer-admins , /ops ,',
        OIDC_AUTO_REGISTER: 'false',
        OIDC_LABEL: 'Keycloak',
        PASSWORD_LOGIN: 'admins',
      });
      expect(config.oidc).toMatchObject({
        clientSecret: 's3cret',
        scopes: 'openid profile groups',
        usernameClaim: 'nickname',
        groupsClaim: 'urn:zitadel:iam:org:project:roles',
        adminGroups: ['coffer-admins', '/ops'],
        autoRegister: false,
        label: 'Keycloak',
      });
      expect(config.passwordLogin).toBe('admins');
    });

    it('stops start-up naming the variable of a bad value, never echoing the secret', () => {
      expect(errorFor({ OIDC_ISSUER: 'https://auth.example.com' }).variable).toBe('OIDC_CLIENT_ID');
      for (const issuer of ['auth.example.com', 'ftp://auth.example.com', 'https://auth.example.com/?x=1', 'http://auth.example.com']) {
        expect(errorFor({ ...base, OIDC_ISSUER: issuer }).variable).toBe('OIDC_ISSUER');
      }
      const withCredentials = errorFor({ ...base, OIDC_ISSUER: 'https://user:pw@auth.example.com' });
      expect(withCredentials.message).not.toContain('pw');
      expect(loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer).toBe('http://127.0.0.1:9000');
      expect(errorFor({ ...base, OIDC_SCOPES: 'profile email' }).variable).toBe('OIDC_SCOPES');
      expect(errorFor({ ...base, OIDC_SCOPES: 'openid "x"' }).variable).toBe('OIDC_SCOPES');
      expect(errorFor({ ...base, OIDC_USERNAME_CLAIM: 'user name' }).variable).toBe('OIDC_USERNAME_CLAIM');
      expect(errorFor({ ...base, OIDC_GROUPS_CLAIM: 'a b' }).variable).toBe('OIDC_GROUPS_CLAIM');
      expect(errorFor({ ...base, OIDC_AUTO_REGISTER: 'yes' }).variable).toBe('OIDC_AUTO_REGISTER');
      expect(errorFor({ ...base, OIDC_LABEL: 'x'.repeat(65) }).variable).toBe('OIDC_LABEL');
      expect(errorFor({ ...base, PASSWORD_LOGIN: 'sometimes' }).variable).toBe('PASSWORD_LOGIN');
    });

    it('lets PASSWORD_LOGIN shut passwords out only when single sign-on can let people in, and registration closed', () => {
      expect(errorFor({ PASSWORD_LOGIN: 'disabled' }).variable).toBe('PASSWORD_LOGIN');
      expect(errorFor({ PASSWORD_LOGIN: 'admins' }).variable).toBe('PASSWORD_LOGIN');
      expect(errorFor({ ...base, PASSWORD_LOGIN: 'disabled', REGISTRATION: 'open' }).variable).toBe('REGISTRATION');
      expect(loadConfig({ ...base, PASSWORD_LOGIN: 'disabled' }).passwordLogin).toBe('disabled');
      expect(loadConfig({ PASSWORD_LOGIN: 'enabled' }).passwordLogin).toBe('enabled');
    });
  });
});

describe('activity and webhook settings', () => {
  it('reads ACTIVITY_ADDRESSES, ACTIVITY_RETENTION_DAYS and WEBHOOK_ALLOW_PRIVATE', () => {
    const config = loadConfig({ ACTIVITY: 'off', ACTIVITY_ADDRESSES: 'none', ACTIVITY_RETENTION_DAYS: '7', WEBHOOK_ALLOW_PRIVATE: 'true' });
    expect(config).toMatchObject({ activity: false, activityAddresses: 'none', activityRetentionDays: 7, webhookAllowPrivate: true });
  });

  it('names the variable of a bad value', () => {
    for (const env of [{ ACTIVITY: 'false' }, { ACTIVITY_ADDRESSES: 'partial' }, { ACTIVITY_RETENTION_DAYS: '0' }, { WEBHOOK_ALLOW_PRIVATE: 'yes' }]) {
      const name = Object.keys(env)[0]!;
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(name);
    }
  });
});
