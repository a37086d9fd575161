/**
 * Content no marketplace listing may carry, caught before any model is asked: requests for
 * weapons or malware, credential phishing (the audience holds wallets), jailbreak prompts and
 * sexual content involving minors. Deliberately narrow: the model score judges the grey areas.
 */
export const UNSAFE_PATTERNS: { pattern: RegExp; reason: string }[] = [
  {
    pattern:
      /\b(make|build|synthesi[sz]e|assemble|produce)\b.{0,60}\b(bomb|explosive|nerve agent|bio-?weapon|chemical weapon)s?\b/i,
    reason: "instructions for weapons",
  },
  {
    pattern:
      /\b(write|build|create|code|develop)\b.{0,60}\b(ransomware|keylogger|credential stealer|info-?stealer|botnet)\b/i,
    reason: "malware creation",
  },
  {
    pattern:
      /\b(send|share|enter|paste|give|reveal|type)\b.{0,40}\b(seed phrase|recovery phrase|mnemonic|private key|secret key)s?\b/i,
    reason: "asks people for wallet secrets",
  },
  {
    pattern:
      /\b(ignore|disregard|forget)\b.{0,20}\b(all|any|the|your)?\s*(previous|prior|above|earlier)\s+(instructions|rules|prompts?)\b/i,
    reason: "a prompt-injection attempt",
  },
  { pattern: /\bdo anything now\b|\bjailbreak\b/i, reason: "a jailbreak prompt" },
  {
    pattern: /\b(child|minor|underage|kid)s?\b.{0,40}\b(sexual|porn|nude|explicit)\b/i,
    reason: "sexual content involving minors",
  },
];
