export const Clock = Symbol('Clock');
export interface Clock {
  now(): Date;
}
