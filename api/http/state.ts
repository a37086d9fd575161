import type { KeyOwner } from "../../shared/auth/api-keys";
import type { Logger } from "../../shared/logger";
import type { PlatformCaller } from "../auth/platform-caller";
import type { RateLimitState } from "../limits/rate-limiter";
import type { RunAttempt } from "../spine/run-attempt";
import type { OpenRequestSlot } from "../limits/open-requests";

/** What every request carries once `requestLogger` has run. */
export interface RequestState {
  requestId: string;
  logger: Logger;
  /** The code of the error answered, for the request's log line (`handleErrors`). */
  errorCode?: string;
  /** Whether the error answered reports a run that failed (it names the run's `job_id`). */
  errorReportsRun?: boolean;
}

/** A `/v1` request: behind the API key and the rate limits (`api/app.ts`). */
export interface V1State extends RequestState {
  auth: KeyOwner;
  /** The limiter's standing after counting this request (absent while its verdict is deferred). */
  rateLimit?: RateLimitState;
  /** The deferred rate-limit verdict, which the run spine awaits before its first write. */
  admission?: Promise<void>;
  /** The open-request slot of a request that streams or waits (`openRequestSlots`), taken by its admission verdict. */
  openRequestSlot?: OpenRequestSlot;
  /** Points counted before the body was read (`rateLimitBeforeLargeBodies`), which `rateLimit` does not count again. */
  prepaidPoints?: number;
  /** Whether a POST is another attempt of one that started a run, and who hears of its run (`idempotency`, `retriedRequests`). */
  attempt?: RunAttempt;
}

/** A platform request behind `platformAuth`. */
export interface PlatformState extends RequestState {
  auth: PlatformCaller;
  /** The uploaded file's bytes, or null when none came (`platformBody`). */
  upload?: Buffer | null;
}

/** A platform request anyone may make (`platformViewer`): the caller, when credentials came. */
export interface ViewerState extends RequestState {
  auth?: PlatformCaller;
}

/** What `validateBody` leaves: the validated body, defaults applied. */
export interface BodyState<Body> {
  body: Body;
}
