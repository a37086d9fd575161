import { AsyncLocalStorage } from "node:async_hooks";

/** What to do as a provider request's bytes leave, for the call running in this async context. */
const leaving = new AsyncLocalStorage<() => void>();

/**
 * Runs `call` with `hook` told the moment each of its provider requests is written (after the SDK
 * has built it and a socket is ready), so a call is known to be sent only once it truly leaves.
 */
export function onRequestLeaving<T>(hook: () => void, call: () => Promise<T>): Promise<T> {
  return leaving.run(hook, call);
}

/** Tells the running call's hook, if any, that its request is being written now. */
export function requestLeavingNow(): void {
  leaving.getStore()?.();
}
