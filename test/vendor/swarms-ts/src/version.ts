export const VERSION = '0.1.0-alpha.40'; // x-release-please-version
