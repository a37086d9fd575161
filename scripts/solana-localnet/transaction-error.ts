import type { FailedTransactionMetadata } from "litesvm";

/**
 * LiteSVM reports errors as numeric `const enum`s, which have no runtime names; these tables give
 * the names the real JSON-RPC uses (the Rust enum variants, in LiteSVM's order).
 */
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
];

const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
];

/** Display texts of the errors clients most often see (the validator's wording). */
const TRANSACTION_TEXT: Record<string, string> = {
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  InsufficientFundsForFee: "Insufficient funds for fee",
  SignatureFailure: "Transaction did not pass signature verification",
  SanitizeFailure: "Transaction failed to sanitize accounts offsets correctly",
};

const INSTRUCTION_TEXT: Record<string, string> = {
  InsufficientFunds: "insufficient funds for instruction",
  InvalidAccountData: "invalid account data for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  IncorrectProgramId: "incorrect program id for instruction",
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
};

/** A transaction error as the JSON-RPC API encodes it (`"AlreadyProcessed"`, `{InstructionError: [0, {Custom: 1}]}`, …). */
export type RpcTransactionError = string | Record<string, unknown>;

export interface DescribedError {
  json: RpcTransactionError;
  text: string;
  /** Whether a validator would still put the transaction in a block (it ran and failed, paying its fee). */
  landed: boolean;
}

function describeInstructionError(err: unknown): { json: unknown; text: string } {
  if (typeof err === "number") {
    const name = INSTRUCTION_ERRORS[err] ?? "GenericError";
    return { json: name, text: INSTRUCTION_TEXT[name] ?? name };
  }
  const e = err as { code?: number; msg?: string };
  if (typeof e.code === "number")
    return { json: { Custom: e.code }, text: `custom program error: 0x${e.code.toString(16)}` };
  return {
    json: { BorshIoError: e.msg ?? "" },
    text: `Failed to serialize or deserialize account data: ${e.msg ?? ""}`,
  };
}

/** Translates LiteSVM's error object into the JSON-RPC encoding and the validator's text. */
export function describeTransactionError(failed: FailedTransactionMetadata): DescribedError {
  const err = failed.err() as unknown;
  if (typeof err === "number") {
    const name = TRANSACTION_ERRORS[err] ?? "SanitizeFailure";
    return { json: name, text: TRANSACTION_TEXT[name] ?? name, landed: false };
  }
  const e = err as { index?: number; accountIndex?: number; err?: () => unknown };
  if (typeof e.err === "function") {
    const inner = describeInstructionError(e.err());
    return {
      json: { InstructionError: [e.index, inner.json] },
      text: `Error processing Instruction ${e.index}: ${inner.text}`,
      landed: true,
    };
  }
  const kind = String((err as object).constructor?.name ?? "");
  if (kind.endsWith("DuplicateInstruction")) {
    return {
      json: { DuplicateInstruction: e.index },
      text: `Transaction contains a duplicate instruction (${e.index}) that is not allowed`,
      landed: false,
    };
  }
  if (kind.endsWith("InsufficientFundsForRent")) {
    return {
      json: { InsufficientFundsForRent: { account_index: e.accountIndex } },
      text: `Transaction results in an account (${e.accountIndex}) with insufficient funds for rent`,
      landed: true,
    };
  }
  return {
    json: { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } },
    text: `Execution of the program referenced by account at index ${e.accountIndex} is temporarily restricted.`,
    landed: true,
  };
}

/** A transaction error that happened before execution (no LiteSVM result to translate). */
export function namedError(name: string): DescribedError {
  return { json: name, text: TRANSACTION_TEXT[name] ?? name, landed: false };
}
