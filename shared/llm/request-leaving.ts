import { AsyncLocalStorage } from "node:async_hooks";

/** What to do as a provider request's bytes leave, for the call running in this async context. */
const leaving = new AsyncLocalStorage<() => void>();

/**
 * Runs `call` with `hook` told as each of its provider requests has left: its bytes handed to the
 * operating system, which delivers them even if this process dies the next moment. A call is
 * therefore known to be sent only once the provider will get it, so a worker killed before then
 * is never billed for a call the provider never saw. The window left is the other way round and
 * shorter (the bytes left, the process died before the mark reached Redis): a call the provider
 * got and nobody bills, which costs the operator one prompt and never the client.
 */
export function onRequestLeaving<T>(hook: () => void, call: () => Promise<T>): Promise<T> {
  return leaving.run(hook, call);
}

/**
 * The running call's hook, to call once its request has left (a no-op outside `onRequestLeaving`).
 * Taken while the request is made, since the write's completion runs outside the call's context.
 */
export function requestLeftHook(): () => void {
  return leaving.getStore() ?? noop;
}

function noop(): void {}
