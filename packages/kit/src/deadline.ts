/**
 * `work`'s answer, or a failure with `message` once `ms` have passed without one. The work itself is left
 * to finish unread: what cannot be cancelled (an SDK call, an in-process inject) is only no longer awaited.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
