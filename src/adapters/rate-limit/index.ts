export { MemoryThrottle } from './memory-throttle.js';
export { MongoThrottle, MongoThrottleOptions } from './mongo-throttle.js';
