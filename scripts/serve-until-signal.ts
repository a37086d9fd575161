/**
 * Runs a local helper server from the command line: starts it, prints where it listens, and closes
 * it gracefully on SIGINT / SIGTERM (a second signal exits at once). A start failure exits 1.
 */
export function serveUntilSignal<S extends { close(): Promise<void> }>(
  name: string,
  start: () => Promise<S>,
  listening: (server: S) => string,
): void {
  start().then(
    (server) => {
      console.log(listening(server));
      let stopping = false;
      const stop = () => {
        // A second signal means the user does not want to wait for a graceful close.
        if (stopping) process.exit(1);
        stopping = true;
        server.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    },
    (err: unknown) => {
      console.error(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
