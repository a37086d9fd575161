import type { Operation } from "../../../openapi/operation";
import { platformError } from "../../../openapi/shared-parts";
import {
  tokenLaunchBatchResponseSchema,
  tokenLaunchResponseSchema,
} from "../../../schemas/token-launch-response.schema";
import { MAX_BATCH_LAUNCHES, tokenLaunchBatchSchema } from "../../../schemas/token-launch-batch.schema";
import { tokenLaunchSchema } from "../../../schemas/token-launch-request.schema";

const WALLET = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";

/** Examples of the token launch's error bodies, one per kind of failure; each matches the platform error schema. */
const badRequests = {
  validation: {
    summary: "Field problems, all at once",
    value: {
      error: "Validation error",
      message: "ticker must be 1-10 letters or digits; private_key must decode to exactly 64 bytes",
      code: "VALIDATION_ERROR",
      errors: [
        { path: "ticker", message: "ticker must be 1-10 letters or digits" },
        { path: "private_key", message: "private_key must decode to exactly 64 bytes" },
      ],
      details: {
        ticker: "ticker must be 1-10 letters or digits",
        private_key: "private_key must decode to exactly 64 bytes",
      },
      status_code: 400,
    },
  },
  insufficientBalance: {
    summary: "The wallet holds less than TOKEN_LAUNCH_MIN_SOL",
    value: {
      error: "Insufficient SOL balance",
      message: `The wallet ${WALLET} holds 0.0125 SOL; a token launch needs at least 0.04 SOL`,
      code: "INSUFFICIENT_BALANCE",
      required_sol: 0.04,
      current_balance_sol: 0.0125,
      status_code: 400,
    },
  },
  tokenizationFailed: {
    summary: "The network refused or failed the launch (the listing is kept as failed and never shown)",
    value: {
      error: "Tokenization failed",
      message:
        "The network refused the launch: Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.",
      code: "TOKENIZATION_FAILED",
      status_code: 400,
    },
  },
  image: {
    summary: "The image is not a PNG, JPEG, WebP or GIF, or is over IMAGE_MAX_BYTES",
    value: {
      error: "Bad request",
      message: "The image must be a PNG, JPEG, WebP or GIF file",
      code: "IMAGE_UNSUPPORTED_TYPE",
      status_code: 400,
    },
  },
};

const serverErrors = {
  unavailable: {
    summary: "The launch could not be carried out (the network or the database stayed unreachable)",
    value: {
      error: "Tokenization failed",
      message: "The launch could not be completed: the network or the database stayed unreachable",
      code: "TOKENIZATION_UNAVAILABLE",
      status_code: 500,
    },
  },
  pending: {
    summary: "Still being confirmed when LAUNCH_WAIT_MS ran out; the listing appears once launched",
    value: {
      error: "Tokenization failed",
      message: "The launch is still being confirmed on the network; the listing appears once it has launched",
      code: "LAUNCH_PENDING",
      id: "0b6f1c1e-5c1a-4a53-9d55-2f7f1b0c9a11",
      listing_url: "http://localhost:8081/agent/0b6f1c1e-5c1a-4a53-9d55-2f7f1b0c9a11",
      status_code: 500,
    },
  },
  chainUnavailable: {
    summary: "The cluster could not be asked for the wallet's balance",
    value: {
      error: "Internal server error",
      message: "The Solana network could not be reached to check the wallet's balance",
      code: "CHAIN_UNAVAILABLE",
      status_code: 500,
    },
  },
};

/** `POST /api/token/launch`, described from the schema the route validates with (JSON and multipart alike). */
export const tokenLaunchOperations: Operation[] = [
  {
    method: "post",
    path: "/api/token/launch",
    summary: "Launch a token for a new agent listing",
    description:
      "Checks the fields, the key (its public half must match its private half), the image, the launcher's metadata limits " +
      "(`meteora-dbc`: name 32 bytes, ticker 10, image URL 200) and the wallet's balance before anything is stored; then " +
      "stores the listing, counts a paid agent against the daily limit, and waits for the chain worker to launch the token. " +
      "API keys only (no session tokens). The key is never stored, logged or echoed.",
    tags: ["Token launch"],
    access: "platform",
    request: {
      body: tokenLaunchSchema,
      description: "JSON, or `multipart/form-data` with the same fields as text and `image` as a file or text.",
      multipart: {
        files: {
          image: {
            description:
              "An image file (PNG, JPEG, WebP or GIF, up to IMAGE_MAX_BYTES; typed by its bytes), or the same text forms as in JSON",
            contentTypes: [
              "image/png",
              "image/jpeg",
              "image/webp",
              "image/gif",
              "application/octet-stream",
              "text/plain",
            ],
          },
        },
      },
      examples: {
        launch: {
          summary: "A launch with an image URL",
          "x-placeholder": true,
          value: {
            name: "Honey Scout",
            description: "Finds honey.",
            ticker: "HNY",
            private_key: "<base58 of the wallet's 64-byte secret key>",
            image: "https://images.example/honey.png",
            fee_selection: "market",
            quote_mint: "SOL",
          },
        },
      },
    },
    responses: {
      200: { description: "Launched", body: tokenLaunchResponseSchema },
      400: {
        ...platformError(
          "`Validation error` (every field problem in `errors`, the key's never quoted), an image that is not accepted (`IMAGE_*`), " +
            "`Insufficient SOL balance` (with `required_sol` and `current_balance_sol`), or `Tokenization failed` (the network refused or failed the launch)",
        ),
        examples: badRequests,
      },
      401: platformError(
        "`Authentication failed`: a missing or invalid API key (session tokens are not accepted here), with `how_to_get_key`",
      ),
      405: {
        ...platformError("Any method but POST (before authentication)"),
        headers: { Allow: { description: "`POST`", schema: { type: "string" } } },
      },
      429: platformError(
        "`Daily limit exceeded`: today's `paidAgents` are used up, with `currentUsage`, `limits` and `resetTime`",
      ),
      500: {
        ...platformError(
          "`Tokenization failed`: the launch could not be carried out (`TOKENIZATION_UNAVAILABLE`) or is still being confirmed (`LAUNCH_PENDING`, with `id` and `listing_url`); or the cluster could not be reached (`CHAIN_UNAVAILABLE`)",
        ),
        examples: serverErrors,
      },
      503: platformError("The job queue or the image storage is unavailable; nothing was launched"),
    },
  },
  {
    method: "post",
    path: "/api/token/launch/batch",
    summary: `Launch 1–${MAX_BATCH_LAUNCHES} tokens, each as \`POST /api/token/launch\` launches one`,
    description:
      "JSON only. Each item of `tokens` is a body of `POST /api/token/launch` (its `image` a URL or base64), checked, counted as a paid agent and " +
      "launched as that route does, all at once; the top-level `private_key` serves every item that gives none. An item that fails fails alone: " +
      "its entry in `results` (and `failures`) carries the error body the single launch would have answered. API keys only.",
    tags: ["Token launch"],
    access: "platform",
    request: {
      body: tokenLaunchBatchSchema,
      examples: {
        batch: {
          summary: "Two launches paid by one wallet",
          "x-placeholder": true,
          value: {
            private_key: "<base58 of the wallet's 64-byte secret key>",
            tokens: [
              { name: "Honey Scout", description: "Finds honey.", ticker: "HNY" },
              { name: "Comb Keeper", description: "Keeps combs.", ticker: "COMB", fee_selection: "frenzy" },
            ],
          },
        },
      },
    },
    responses: {
      200: { description: "Every item launched", body: tokenLaunchBatchResponseSchema },
      207: {
        description: "Some items failed (each with its error body); the others launched",
        body: tokenLaunchBatchResponseSchema,
      },
      400: platformError(
        `\`Validation error\` of the envelope: \`tokens\` missing, not an array of objects, empty or over ${MAX_BATCH_LAUNCHES}, or a bad top-level \`private_key\``,
      ),
      401: platformError("`Authentication failed`: a missing or invalid API key, with `how_to_get_key`"),
    },
  },
];
