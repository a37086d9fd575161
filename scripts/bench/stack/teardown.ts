/** Something to undo when the scenario ends (stop a process, close a connection). */
export type TeardownStep = () => Promise<void> | void;

const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Runs `body` and then always its registered teardown steps (newest first, each one even if an
 * earlier one failed): on success, on a thrown error, and on Ctrl-C / SIGTERM / SIGHUP, where the
 * process exits right after tearing down. Without this, an interrupted benchmark leaves a web
 * server, a worker and a simulator running on random ports.
 */
export async function withTeardown<T>(body: (onTeardown: (step: TeardownStep) => void) => Promise<T>): Promise<T> {
  const steps: TeardownStep[] = [];
  let running: Promise<void> | undefined;
  const teardown = () =>
    (running ??= (async () => {
      for (const step of steps.reverse()) {
        try {
          await step();
        } catch (err) {
          console.error(`teardown step failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })());

  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C while tearing down is ignored: exiting now would orphan the children.
    if (running) return;
    console.error(`\n${signal}: stopping child processes…`);
    void teardown().then(() => process.exit(SIGNAL_EXIT_CODES[signal] ?? 1));
  };
  const signals = Object.keys(SIGNAL_EXIT_CODES) as NodeJS.Signals[];
  for (const s of signals) process.on(s, onSignal);
  try {
    return await body((step) => steps.push(step));
  } finally {
    await teardown();
    for (const s of signals) process.off(s, onSignal);
  }
}
