import 'reflect-metadata';

// Tests send traffic to loopback only: the start-up probe for a downloadable mongod asks a closed local port,
// never the real download host, unless a test (or the person running them) points it elsewhere.
process.env.MONGOMS_DOWNLOAD_MIRROR ??= 'http://127.0.0.1:9';
