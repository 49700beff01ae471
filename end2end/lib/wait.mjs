// Waiting in browser tests without fixed sleeps before assertions.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `check` until it stops throwing (its result), or throws its last error after `timeout`. */
export async function eventually(check, { timeout = 5_000, interval = 100 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(interval);
    }
  }
}
