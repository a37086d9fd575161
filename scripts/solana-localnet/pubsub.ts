import { JSONRPCErrorException, JSONRPCServer } from "json-rpc-2.0";
import type { WebSocket } from "ws";
import type { LandedTransaction, Ledger } from "./ledger";
import { RPC_ERRORS } from "./rpc-methods";

/** One client socket's live subscriptions: id → how to stop it. */
type Subscriptions = Map<number, () => void>;

export interface PubsubParams {
  socket: WebSocket;
  subscriptions: Subscriptions;
}

function notify(socket: WebSocket, method: string, subscription: number, result: unknown): void {
  if (socket.readyState === socket.OPEN)
    socket.send(JSON.stringify({ jsonrpc: "2.0", method, params: { result, subscription } }));
}

/**
 * The validator's websocket methods that `Connection.confirmTransaction` and `onSlotChange` use.
 * A signature subscription fires once (then ends), at once when the signature has already landed;
 * everything that lands is final, so every commitment level is met together.
 */
export function createPubsubServer(ledger: Ledger): JSONRPCServer<PubsubParams> {
  const pubsub = new JSONRPCServer<PubsubParams>({ errorListener: () => undefined });
  let nextId = 1;

  const unsubscribe = (params: unknown, { subscriptions }: PubsubParams) => {
    const id = Array.isArray(params) ? params[0] : undefined;
    const stop = typeof id === "number" ? subscriptions.get(id) : undefined;
    if (!stop) throw new JSONRPCErrorException("Invalid subscription id.", RPC_ERRORS.invalidParams);
    stop();
    return true;
  };

  pubsub.addMethod("signatureSubscribe", (params, { socket, subscriptions }) => {
    const signature = Array.isArray(params) ? params[0] : undefined;
    if (typeof signature !== "string")
      throw new JSONRPCErrorException("Invalid params: expected a signature", RPC_ERRORS.invalidParams);
    const id = nextId++;
    const fire = (landed: LandedTransaction) => {
      subscriptions.get(id)?.();
      notify(socket, "signatureNotification", id, { context: { slot: landed.slot }, value: { err: landed.err } });
    };
    const onLanded = (landedSignature: string, landed: LandedTransaction) => {
      if (landedSignature === signature) fire(landed);
    };
    ledger.on("landed", onLanded);
    subscriptions.set(id, () => {
      ledger.off("landed", onLanded);
      subscriptions.delete(id);
    });
    const already = ledger.status(signature);
    // After the reply carrying the id, so the client knows the subscription the notice belongs to.
    if (already) setImmediate(() => subscriptions.has(id) && fire(already));
    return id;
  });
  pubsub.addMethod("signatureUnsubscribe", unsubscribe);

  pubsub.addMethod("slotSubscribe", (_params, { socket, subscriptions }) => {
    const id = nextId++;
    const onSlot = (slot: { parent: number; root: number; slot: number }) =>
      notify(socket, "slotNotification", id, slot);
    ledger.on("slot", onSlot);
    subscriptions.set(id, () => {
      ledger.off("slot", onSlot);
      subscriptions.delete(id);
    });
    return id;
  });
  pubsub.addMethod("slotUnsubscribe", unsubscribe);

  // web3.js keeps its socket alive with a `ping` notification every 5 s.
  pubsub.addMethod("ping", () => null);
  return pubsub;
}
