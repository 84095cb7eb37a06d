/**
 * Waits until `promise` settles, fulfilled or rejected, or `ms` pass, whichever comes first;
 * never rejects. For shutdown steps that must not hang on a peer that stopped answering.
 */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([promise.catch(() => {}), deadline]);
  clearTimeout(timer);
}
