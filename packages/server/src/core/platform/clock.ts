/** Time, injected so tests can move it. Unix seconds are what every table stores. */
export interface Clock {
  now(): number;
  unixSeconds(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  unixSeconds: () => Math.floor(Date.now() / 1000),
};
