import { CreateSpine1763776800000 } from "./1763776800000-create-spine";
import { CreateIdempotencyKeys1763780400000 } from "./1763780400000-create-idempotency-keys";
import { RuntimeLedger1763784000000 } from "./1763784000000-runtime-ledger";
import { CreatePlatform1763791200000 } from "./1763791200000-create-platform";
import { TokenLaunchSignatures1763795700000 } from "./1763795700000-token-launch-signatures";
import { RunLease1763798400000 } from "./1763798400000-run-lease";
import { PromptTokenLaunches1763802000000 } from "./1763802000000-prompt-token-launches";
import { RunSealedSecrets1763805600000 } from "./1763805600000-run-sealed-secrets";
import { PromptModeration1763806500000 } from "./1763806500000-prompt-moderation";
import { HostedRunKinds1763810000000 } from "./1763810000000-hosted-run-kinds";
import { RunRetries1763812000000 } from "./1763812000000-run-retries";
import { BillingLedger1763820000000 } from "./1763820000000-billing-ledger";
import { RunAgentOutcomes1763823600000 } from "./1763823600000-run-agent-outcomes";
import { Webhooks1763830000000 } from "./1763830000000-webhooks";
import { RunListIndexes1763837200000 } from "./1763837200000-run-list-indexes";
import { RunAttempts1763900200000 } from "./1763900200000-run-attempts";
import { ApprovalGates1763900300000 } from "./1763900300000-approval-gates";
import { EcosystemRunKinds1763900400000 } from "./1763900400000-ecosystem-run-kinds";
import { AgentListings1763900700000 } from "./1763900700000-agent-listings";
import { Accounts1763901000000 } from "./1763901000000-accounts";
import { ListingBundles1763901400000 } from "./1763901400000-listing-bundles";

/** Every migration, oldest first. Listed explicitly so no file-system scanning is needed. */
export const migrations = [
  CreateSpine1763776800000,
  CreateIdempotencyKeys1763780400000,
  RuntimeLedger1763784000000,
  CreatePlatform1763791200000,
  TokenLaunchSignatures1763795700000,
  RunLease1763798400000,
  PromptTokenLaunches1763802000000,
  RunSealedSecrets1763805600000,
  PromptModeration1763806500000,
  HostedRunKinds1763810000000,
  RunRetries1763812000000,
  BillingLedger1763820000000,
  RunAgentOutcomes1763823600000,
  Webhooks1763830000000,
  RunListIndexes1763837200000,
  RunAttempts1763900200000,
  ApprovalGates1763900300000,
  EcosystemRunKinds1763900400000,
  AgentListings1763900700000,
  Accounts1763901000000,
  ListingBundles1763901400000,
];
