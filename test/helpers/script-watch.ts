import type { Command, Redis } from "ioredis";

/**
 * The Lua script calls (EVALSHA, EVAL) a client sends that name a key: when (ms) and with which
 * keys. Watches the client's own sends (MONITOR would show every test slot's traffic on the shared
 * server, and ioredis's monitor mode trips over that much of it).
 */
export class ScriptWatch {
  readonly calls: { at: number; keys: string[] }[] = [];
  private restore: (() => void) | undefined;

  constructor(private readonly key: string) {}

  /** Starts watching what `redis` sends. */
  start(redis: Redis): void {
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = (command: Command, ...rest: unknown[]) => {
      const args = command.args.map(String);
      if ((command.name === "evalsha" || command.name === "eval") && args.includes(this.key))
        this.calls.push({ at: Date.now(), keys: args.slice(2, 2 + Number(args[1])) });
      return (send as (...params: unknown[]) => ReturnType<Redis["sendCommand"]>)(command, ...rest);
    };
    this.restore = () => {
      redis.sendCommand = send;
    };
  }

  stop(): void {
    this.restore?.();
  }
}
