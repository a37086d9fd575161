import type { BoardHooks, BullBoardRequest, HookContext } from "@bull-board/api/typings/app";

/** Why Bull Board may not do something to a run's job: the status and message its UI shows. */
interface Refusal {
  status: 403 | 409;
  message: string;
}

/** Decides one of Bull Board's write routes for a request: null lets it through. */
type ActionRule = (request: BullBoardRequest) => Refusal | null | Promise<Refusal | null>;

/** Safe as it is: the runs in Postgres stay true whatever the action does to their jobs. */
const allowed: ActionRule = () => null;

/** Never done from the board: `why` is what the operator is told. */
const refused =
  (why: string): ActionRule =>
  () => ({ status: 403, message: why });

const STRANDS_RUNS = "It would remove jobs whose runs have not ended, leaving those runs with nothing to run them";
const ANSWERED_BY_APIARY = "Apiary answers this route itself, in front of the board";

/** Removing a job is safe once it has finished: its run has ended, and the run is the record. */
const removeFinishedJobOnly: ActionRule = async ({ queues, params }) => {
  const job = await queues.get(String(params.queueName))?.getJob(String(params.jobId));
  if (!job) return null; // the board answers 404 itself
  const state = await job.getState();
  if (state === "completed" || state === "failed") return null;
  return {
    status: 409,
    message: `The job is ${state}: removing it would leave its run, which has not ended, with nothing to run it`,
  };
};

/** Cleaning finished jobs is safe; cleaning jobs still to run would strand their runs. */
const cleanFinishedJobsOnly: ActionRule = ({ params }) =>
  params.queueStatus === "completed" || params.queueStatus === "failed"
    ? null
    : {
        status: 403,
        message: `Cleaning ${String(params.queueStatus)} jobs would leave their runs, which have not ended, with nothing to run them`,
      };

/**
 * Every write route of the installed Bull Board (9.10), by its method and route as the library
 * names them, and what Apiary lets it do to a run's job. Reads (GET) are all allowed. A write
 * route not listed here (a later version's) is refused until it is added.
 */
export const BOARD_ACTIONS: Record<string, ActionRule> = {
  // Pausing holds runs in the queue, still queued; they run once resumed. A synchronous caller's
  // wait ends in 504 with the job id meanwhile.
  "put /api/queues/pause": allowed,
  "put /api/queues/resume": allowed,
  "put /api/queues/:queueName/pause": allowed,
  "put /api/queues/:queueName/resume": allowed,
  // Timing only: a job taken early whose run another delivery still holds waits for its lease.
  "put /api/queues/:queueName/promote": allowed,
  "put /api/queues/:queueName/:jobId/promote": allowed,
  "patch /api/queues/:queueName/:jobId/delay": allowed,
  "patch /api/queues/:queueName/:jobId/priority": allowed,
  "put /api/queues/:queueName/concurrency": allowed,
  "put /api/queues/:queueName/rate-limit": allowed,
  "put /api/queues/:queueName/rate-limit/release": allowed,
  // Only with a metrics history provider, which Apiary does not configure: counters, not runs.
  "post /api/metrics/history/purge": allowed,
  // Retries go through the run's state machine (`bull-board-retry.router.ts`).
  "put /api/queues/:queueName/:jobId/retry": refused(ANSWERED_BY_APIARY),
  "put /api/queues/:queueName/retry/:queueStatus": refused(ANSWERED_BY_APIARY),
  "put /api/queues/:queueName/:jobId/clean": removeFinishedJobOnly,
  "put /api/queues/:queueName/clean/:queueStatus": cleanFinishedJobsOnly,
  "put /api/queues/:queueName/empty": refused(STRANDS_RUNS),
  "put /api/queues/:queueName/obliterate": refused(STRANDS_RUNS),
  "put /api/queues/:queueName/:jobId/remove-unprocessed-children": refused(
    "It would remove a batch's items that have not run, leaving their runs queued and the batch short of them",
  ),
  // Add job and Duplicate: a job runs the run its data names, and runs are made through the API.
  "post /api/queues/:queueName/add": refused("Runs are created through the API, each with its one job"),
  // Edit: a worker reads the run id from the job's data; another id would run another run.
  "patch /api/queues/:queueName/:jobId/update-data": refused(
    "A job's data names its run; the run is changed through the API, never through its job",
  ),
  // Apiary schedules no jobs: a scheduler would add jobs without runs.
  "put /api/queues/:queueName/job-schedulers/:schedulerId/remove": refused("Apiary schedules no jobs"),
  "patch /api/queues/:queueName/job-schedulers/:schedulerId": refused("Apiary schedules no jobs"),
  "put /api/queues/:queueName/job-schedulers/:schedulerId/run": refused("Apiary schedules no jobs"),
};

/** The rule of a route: listed, a read, or an unknown write (refused). */
function ruleFor({ method, route }: Pick<HookContext, "method" | "route">): ActionRule {
  const rule = BOARD_ACTIONS[`${method} ${route}`];
  if (rule) return rule;
  return method === "get" ? allowed : refused("Apiary does not know this Bull Board action, so it does not allow it");
}

/**
 * Bull Board's handler hooks: every request to one of its API routes is let through or refused
 * (with the board's own error body, which its UI shows) by `BOARD_ACTIONS`, so that no action
 * leaves a run's record untrue.
 */
export const boardActionPolicy: BoardHooks = {
  async before(context) {
    const refusal = await ruleFor(context)(context.request);
    return refusal
      ? { allow: false, status: refusal.status, errorKey: "ERRORS.FORBIDDEN", message: refusal.message }
      : undefined;
  },
};
