/** cluster-key-slot 1.x (ioredis's own slot function) ships no types; this is the part the code and tests use. */
declare module "cluster-key-slot" {
  /** The Redis Cluster slot (0–16383) of a key: CRC16 of its hash tag, or of the whole key when it has none. */
  function calculateSlot(key: string | Buffer): number;
  export = calculateSlot;
}
