/** The middle value (the upper one of the two middles for an even count), or 0 for none. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
